import { readFileSync } from "node:fs";
import { collectRegistrations, type PluginRegistry } from "@racksmith/core";
import type { NvLinkFabricDefinition } from "@racksmith/core/nvlink";
import { describe, expect, it } from "vitest";
import plugin, { nmxmFabric } from "../src/index.js";

describe("plugin manifest", () => {
  it("registers the nmxm NVLink fabric with its config schema", async () => {
    const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    expect(plugin).toMatchObject({ name: "@racksmith/fabric-nmxm", version, apiVersion: 1 });
    const registered: NvLinkFabricDefinition[] = [];
    // Only the hook this plugin uses; any other call fails the test.
    const registry = {
      nvlinkFabric: (definition: NvLinkFabricDefinition) => void registered.push(definition),
    } as unknown as PluginRegistry;
    await plugin.register(registry);
    expect(registered).toEqual([nmxmFabric]);
    expect(nmxmFabric.configSchema).toMatchObject({ required: ["endpoint", "passwordFile"] });
  });

  it("contributes the nmxm fabric and nothing else through a full registry", async () => {
    const registered = await collectRegistrations(plugin);
    expect(registered.nvlinkFabrics.map((definition) => definition.name)).toEqual(["nmxm"]);
    expect(registered).toMatchObject({
      bmcDrivers: [],
      healthProbes: [],
      validationRunners: [],
      infinibandFabrics: [],
    });
  });
});
