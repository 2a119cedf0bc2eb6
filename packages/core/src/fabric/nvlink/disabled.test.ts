import { describe, expect, it } from "vitest";
import { defineNvLinkFabric } from "./defineNvLinkFabric.js";
import { disabledNvLinkFabric } from "./disabled.js";
import { NvLinkFabricDisabledError } from "./errors.js";

describe("disabledNvLinkFabric", () => {
  it("fails every call with fabric_disabled naming the call and the fix", async () => {
    const fabric = disabledNvLinkFabric();
    const error = await fabric.createPartition({ name: "x", gpus: ["g"] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NvLinkFabricDisabledError);
    expect(error).toMatchObject({ code: "fabric_disabled", status: "FAILED_PRECONDITION" });
    expect((error as Error).message).toContain("createPartition");
    expect((error as Error).message).toContain("fabrics.nvlink");
    await expect(fabric.listGpus()).rejects.toMatchObject({ code: "fabric_disabled" });
    await expect(fabric.waitForOperation("op")).rejects.toMatchObject({ code: "fabric_disabled" });
    await expect(fabric.close()).resolves.toBeUndefined();
  });
});

describe("defineNvLinkFabric", () => {
  it("refuses a malformed definition with every problem", () => {
    expect(() =>
      defineNvLinkFabric({ name: "Bad Name", create: undefined as never, configSchema: "x" as never }),
    ).toThrow(/kebab-case.*create must be a function.*configSchema/);
    expect(() => defineNvLinkFabric({ name: "disabled", create: () => disabledNvLinkFabric() })).toThrow(
      /reserved/,
    );
  });
});
