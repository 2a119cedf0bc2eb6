import { collectRegistrations } from "@racksmith/core";
import { describe, expect, it } from "vitest";
import plugin from "../index.js";
import { gpuHost } from "../sku/__fixtures__/inventory.js";
import { skuRules } from "./skuRules.js";

describe("the plugin's SKU rules", () => {
  it("are what the plugin registers, and nothing else", async () => {
    const registered = await collectRegistrations(plugin);
    expect(registered.skuRules).toEqual([skuRules]);
    expect([registered.bmcDrivers, registered.validationRunners, registered.healthProbes]).toEqual([
      [],
      [],
      [],
    ]);
    expect(plugin.name).toBe("@racksmith/validation-sku");
  });

  it("verify a stored document: nothing on the same build, one line per difference otherwise", () => {
    const stored = JSON.parse(JSON.stringify(skuRules.generate(gpuHost(), { id: "dell.xe9680.gpu.1" })));
    expect(skuRules.verify(skuRules.parse(stored), gpuHost())).toEqual([]);
    expect(
      skuRules.verify(
        stored,
        gpuHost((i) => void i.gpus.pop()),
      ),
    ).toEqual([{ component: "gpu", message: "gpu NVIDIA H100 80GB HBM3: expected 8, found 7" }]);
  });

  it("refuse a stored document that is no longer a valid SKU, naming the field", () => {
    const stored = { ...skuRules.generate(gpuHost()), memoryBytes: "lots" };
    expect(() => skuRules.verify(stored, gpuHost())).toThrow(/memoryBytes/);
  });
});
