import { readFileSync } from "node:fs";
import type { NvLinkFabricDefinition, PluginRegistry } from "@racksmith/core";
import { PluginHost } from "@racksmith/core/server";
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

  it("loads into the plugin host", async () => {
    const host = new PluginHost();
    await host.register(plugin, "@racksmith/fabric-nmxm");
    expect(host.nvlinkFabrics().map((entry) => entry.definition.name)).toEqual(["nmxm"]);
    await expect(host.register(plugin, "again")).rejects.toThrow(/already registered/);
  });
});
