import { fileURLToPath } from "node:url";
import type { SkuRules, ValidationRunner } from "@racksmith/core";
import { definePlugin, type PluginRegistry } from "@racksmith/core";
import { emptyHealthReport, type HealthProbe } from "@racksmith/core/health";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/index.js";
import { createPluginHost } from "./bootstrap.js";
import { PluginLoadError } from "./errors.js";
import { PluginHost } from "./pluginHost.js";

const project = fileURLToPath(new URL("../../test/fixtures/plugin-project", import.meta.url));

const probe = (name: string): HealthProbe => ({
  name,
  ids: ["Probe"],
  targets: ["host"],
  run: async () => emptyHealthReport(name),
});
const runner = (name: string): ValidationRunner => ({
  name,
  run: async () => ({ passed: true, results: [] }),
});

const skuRules = (name: string): SkuRules => ({
  name,
  parse: () => ({ id: "s", schemaVersion: 1, description: "" }),
  generate: () => ({ id: "s", schemaVersion: 1, description: "" }),
  verify: () => [],
});

/** Registers a plugin built from `register`, returning the error it fails with (or undefined). */
async function register(host: PluginHost, name: string, body: (r: PluginRegistry) => void): Promise<unknown> {
  const plugin = definePlugin({ name, version: "1.0.0", apiVersion: 1, register: body });
  return host.register(plugin, name).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("health probe and validation runner registrations", () => {
  it("loads a probe and a runner from a plugin the config names", async () => {
    const { host } = await createPluginHost(loadConfig({ cwd: project, file: "health.yaml" }));
    const source = {
      plugin: "@fixture/health-plugin",
      version: "2.0.0",
      specifier: "@fixture/health-plugin",
    };
    expect(host.healthProbes().map((p) => [p.definition.name, p.definition.ids, p.source])).toEqual([
      ["fixture-fans", ["FixtureFan"], source],
      ["fixture-links", ["FixtureLink"], source],
    ]);
    expect(host.validationRunners().map((r) => [r.definition.name, r.definition.contexts, r.source])).toEqual(
      [["fixture-burn-in", ["discovery", "cleanup"], source]],
    );
    const fans = host.healthProbes()[0]?.definition;
    const report = await fans?.run?.({
      machineId: "m1",
      kind: "bmc",
      signal: new AbortController().signal,
      now: new Date("2024-06-01T00:00:00Z"),
    });
    expect(report?.successes).toEqual([{ id: "FixtureFan", target: "fan1" }]);
  });

  it("has none when no plugin adds any, and keeps hosts apart", async () => {
    const first = new PluginHost();
    await register(first, "@x/one", (r) => {
      r.healthProbe(probe("p"));
      r.validationRunner(runner("v"));
    });
    const second = new PluginHost();
    expect([second.healthProbes(), second.validationRunners()]).toEqual([[], []]);
    expect(first.healthProbes().map((p) => p.definition.name)).toEqual(["p"]);
  });

  it.each<{ name: string; add: (r: PluginRegistry) => void; pattern: RegExp }>([
    {
      name: "a probe name taken by another plugin",
      add: (r) => r.healthProbe(probe("shared")),
      pattern:
        /@x\/second: health probe "shared" is already registered by @x\/first — list only one of @x\/first and @x\/second/,
    },
    {
      name: "a runner name taken by another plugin",
      add: (r) => r.validationRunner(runner("shared")),
      pattern: /@x\/second: validation runner "shared" is already registered by @x\/first/,
    },
  ])("refuses $name with plugin_duplicate", async ({ add, pattern }) => {
    const host = new PluginHost();
    expect(
      await register(host, "@x/first", (r) => {
        r.healthProbe(probe("shared"));
        r.validationRunner(runner("shared"));
      }),
    ).toBeUndefined();
    const error = await register(host, "@x/second", add);
    expect(error).toBeInstanceOf(PluginLoadError);
    expect((error as PluginLoadError).code).toBe("plugin_duplicate");
    expect((error as PluginLoadError).message).toMatch(pattern);
  });

  it("tells a plugin registering the same name twice to register it once", async () => {
    const error = await register(new PluginHost(), "@x/twice", (r) => {
      r.healthProbe(probe("p"));
      r.healthProbe(probe("p"));
    });
    expect((error as PluginLoadError).message).toMatch(
      /already registered by @x\/twice — register each health probe once/,
    );
  });

  it("a probe and a runner may share a name: they are different things", async () => {
    const host = new PluginHost();
    expect(
      await register(host, "@x/one", (r) => {
        r.healthProbe(probe("burn-in"));
        r.validationRunner(runner("burn-in"));
      }),
    ).toBeUndefined();
  });

  it.each<{ name: string; add: (r: PluginRegistry) => void; pattern: RegExp }>([
    {
      name: "a probe with an unknown target",
      add: (r) => r.healthProbe({ ...probe("p"), targets: ["switch"] } as unknown as HealthProbe),
      pattern: /@x\/bad: health probe "p": unknown targets switch .* — fix the health probe definition/,
    },
    {
      name: "a runner without run",
      add: (r) => r.validationRunner({ name: "v" } as unknown as ValidationRunner),
      pattern:
        /@x\/bad: validation runner "v": run must be a function — fix the validation runner definition/,
    },
    {
      name: "a runner with an unknown context",
      add: (r) =>
        r.validationRunner({ ...runner("v"), contexts: ["nightly"] } as unknown as ValidationRunner),
      pattern: /unknown contexts nightly \(known: discovery, cleanup, onDemand\)/,
    },
    {
      name: "a runner name that is not kebab-case",
      add: (r) => r.validationRunner(runner("Burn In")),
      pattern: /validation runner "Burn In": name "Burn In" must be kebab-case/,
    },
  ])("refuses $name with plugin_invalid", async ({ add, pattern }) => {
    const host = new PluginHost();
    const error = await register(host, "@x/bad", add);
    expect((error as PluginLoadError).code).toBe("plugin_invalid");
    expect((error as PluginLoadError).message).toMatch(pattern);
    expect(host.plugins()).toEqual([]);
  });

  it("keeps one set of SKU rules: a second set, from any plugin, is refused naming the first", async () => {
    const host = new PluginHost();
    expect(await register(host, "@x/sku", (r) => r.skuRules(skuRules("bom")))).toBeUndefined();
    expect(host.skuRules().map((r) => [r.definition.name, r.source.plugin])).toEqual([["bom", "@x/sku"]]);
    const error = await register(host, "@x/other", (r) => r.skuRules(skuRules("other-bom")));
    expect((error as PluginLoadError).code).toBe("plugin_duplicate");
    expect((error as PluginLoadError).message).toMatch(
      /@x\/other: SKU rules "other-bom": @x\/sku already registered SKU rules \("bom"\)/,
    );
    expect(new PluginHost().skuRules()).toEqual([]);
  });

  it("keeps one set of host test rules, each built-in test parsed by the rules", async () => {
    const rules = {
      name: "tests",
      builtInTests: [],
      parseTest: () => {
        throw new Error("not a test");
      },
      select: () => ({ tests: [], unschedulable: [] }),
      judge: () => ({ passed: true, message: "" }),
    };
    const host = new PluginHost();
    expect(await register(host, "@x/tests", (r) => r.hostTestRules(rules))).toBeUndefined();
    expect(host.hostTestRules().map((r) => r.definition.name)).toEqual(["tests"]);
    const second = await register(host, "@x/more", (r) => r.hostTestRules({ ...rules, name: "more" }));
    expect((second as PluginLoadError).code).toBe("plugin_duplicate");
    const bad = await register(new PluginHost(), "@x/bad", (r) =>
      r.hostTestRules({ ...rules, builtInTests: [{ id: "b" } as never] }),
    );
    expect((bad as PluginLoadError).message).toMatch(
      /host test rules "tests": built-in test "b": not a test/,
    );
  });

  it("refuses SKU rules without verify, naming it", async () => {
    const error = await register(new PluginHost(), "@x/bad", (r) =>
      r.skuRules({ ...skuRules("bom"), verify: undefined } as unknown as SkuRules),
    );
    expect((error as PluginLoadError).code).toBe("plugin_invalid");
    expect((error as PluginLoadError).message).toMatch(/SKU rules "bom": verify must be a function/);
  });
});
