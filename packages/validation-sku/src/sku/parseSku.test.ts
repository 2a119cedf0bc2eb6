import { describe, expect, it } from "vitest";
import { gpuHost } from "./__fixtures__/inventory.js";
import { generateSku } from "./generateSku.js";
import { parseSku } from "./parseSku.js";

const sku = generateSku(gpuHost());

describe("parseSku", () => {
  it("reads back a generated SKU (a file written by `sku generate --json`), the description optional", () => {
    expect(parseSku(JSON.parse(JSON.stringify(sku)))).toEqual(sku);
    const { description: _description, ...bare } = sku;
    expect(parseSku(bare).description).toBe("");
  });

  it.each<[string, unknown, string]>([
    ["not an object", [sku], "the SKU must be an object"],
    ["no id", { ...sku, id: undefined }, "id must be a string"],
    ["an empty id", { ...sku, id: "  " }, "id must not be empty"],
    ["a huge id", { ...sku, id: "x".repeat(10_000) }, "id must be at most 256 characters"],
    [
      "a NUL in a model",
      { ...sku, chassis: { vendor: "Dell", model: "R7\u000050" } },
      "chassis.model must not contain NUL",
    ],
    [
      "a count of zero",
      { ...sku, gpus: [{ model: "H100", count: 0 }] },
      "gpus[0].count must be a whole number ≥ 1",
    ],
    [
      "a count as text",
      { ...sku, cpus: [{ model: "x", threads: 2, count: "2" }] },
      "cpus[0].count must be a whole number ≥ 1",
    ],
    ["a list that is not one", { ...sku, disks: {} }, "disks must be a list"],
    ["an unknown field", { ...sku, gpu: [] }, "gpu is not a SKU field"],
    [
      "an unknown item field",
      { ...sku, nics: [{ model: "CX7", count: 1, mac: "x" }] },
      "nics[0].mac is not a SKU field",
    ],
    ["a schema version below 1", { ...sku, schemaVersion: 0 }, "schemaVersion must be a whole number ≥ 1"],
  ])("refuses %s, naming the field", (_, value, message) => {
    expect(() => parseSku(value)).toThrow(
      expect.objectContaining({ code: "invalid_argument", message: expect.stringContaining(message) }),
    );
  });
});
