import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "@racksmith/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_CONFIG, type LoadedConfig, type RacksmithConfig } from "../config/index.js";
import { PluginHost } from "../plugins/index.js";
import type { ServiceFeature } from "./feature.js";
import { DEFAULT_FEATURES } from "./features.js";
import { startService } from "./startService.js";
import { validateFeatureConfigs } from "./validateFeatureConfigs.js";

// A file plugin registering an InfiniBand fabric whose schema wants pkey ranges with both bounds.
const FABRIC_PLUGIN = `export default {
  name: "fixture-ib-fabric", version: "1.0.0", apiVersion: 1, $$type: "@racksmith/plugin",
  register(r) {
    r.infinibandFabric({
      name: "fixture-ib",
      configSchema: {
        type: "object", additionalProperties: false, required: ["endpoint"],
        properties: {
          endpoint: { type: "string" },
          pkeyRanges: { type: "array", items: { type: "object", required: ["start", "end"],
            properties: { start: { type: "string" }, end: { type: "string" } } } },
        },
      },
      create: () => { throw new Error("not created in these tests"); },
    });
  },
};
`;

describe("a service whose config is wrong", () => {
  let dir: string;
  let dataDir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "racksmith-config-check-"));
    dataDir = join(dir, "data");
    writeFileSync(join(dir, "fabric-plugin.mjs"), FABRIC_PLUGIN);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const start = (config: Partial<RacksmithConfig>): Promise<unknown> =>
    startService({
      config: {
        config: {
          ...structuredClone(DEFAULT_CONFIG),
          server: { http: "127.0.0.1:0", grpc: "127.0.0.1:0" },
          database: {
            url: "",
            dataDir,
            schema: "",
            poolSize: 10,
            preparedStatements: true,
            upkeepIntervalMs: 60_000,
          },
          ...config,
        },
        file: join(dir, "racksmith.yaml"),
        baseDir: dir,
      },
      logger: silentLogger,
      env: {},
    }).then(
      async (service) => {
        await (service as { stop(): Promise<void> }).stop();
        throw new Error("the service started");
      },
      (error: unknown) => error,
    );

  /** The PGlite folder was never created, or holds nothing: no database was opened, nothing migrated. */
  const expectNoDatabase = (): void => {
    expect(existsSync(dataDir) ? readdirSync(dataDir) : []).toEqual([]);
  };

  it("names a bad DHCP pool CIDR and opens no database", async () => {
    const error = await start({ inventory: { dhcp: { underlayPool: "10.0.0.0/33" } } });
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).code).toBe("config_invalid");
    expect((error as ConfigError).problems).toEqual([
      'inventory.dhcp.underlayPool: "10.0.0.0/33" is not an IPv4 CIDR such as 10.100.0.0/16',
    ]);
    expect((error as ConfigError).message).toContain(join(dir, "racksmith.yaml"));
    expectNoDatabase();
  });

  it("names every bad key of the fabrics section, core and plugin keys, and opens no database", async () => {
    const error = await start({
      plugins: ["./fabric-plugin.mjs"],
      fabrics: {
        infiniband: { maxPartitionsPerTenant: 40, endpoint: 7, pkeyRanges: [{ start: "0x100" }] },
        nvlink: { endpoint: "https://nmxm" },
      },
    });
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      "fabrics.infiniband.maxPartitionsPerTenant: must be an integer 1..31",
      "fabrics.infiniband.endpoint: must be a string",
      "fabrics.infiniband.pkeyRanges[0]: missing required key end",
      "fabrics.nvlink: no loaded plugin registers an NVLink fabric; add one such as @racksmith/fabric-nmxm to plugins",
    ]);
    expectNoDatabase();
  });

  it("names an unknown key of a fabric's section with the keys it takes", async () => {
    const error = await start({
      plugins: ["./fabric-plugin.mjs"],
      fabrics: { infiniband: { fabric: "fixture-ib", endpoint: "https://ufm", pkeyRange: [] } },
    });
    expect((error as ConfigError).problems).toEqual([
      "unknown key fabrics.infiniband.pkeyRange (did you mean pkeyRanges?); allowed: fabric, maxPartitionsPerTenant, allowInsecureFabric, endpoint, pkeyRanges",
    ]);
    expectNoDatabase();
  });
});

describe("validateFeatureConfigs", () => {
  const loaded = (config: Partial<RacksmithConfig> = {}): LoadedConfig => ({
    config: { ...structuredClone(DEFAULT_CONFIG), ...config },
    file: undefined,
    baseDir: process.cwd(),
  });
  const problems = (features: readonly ServiceFeature[], config: LoadedConfig): readonly string[] => {
    try {
      validateFeatureConfigs(features, { config, host: new PluginHost() });
      return [];
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
  };

  it("accepts the default config for the default features", () => {
    expect(problems(DEFAULT_FEATURES, loaded())).toEqual([]);
  });

  it("reports every feature's problems at once, each once", () => {
    const checking = (name: string, found: string[]): ServiceFeature => ({
      name,
      validateConfig: () => found,
      setup: async () => ({}),
    });
    const silent: ServiceFeature = { name: "silent", setup: async () => ({}) };
    expect(
      problems(
        [checking("a", ["a.x: bad", "shared: bad"]), silent, checking("b", ["shared: bad"])],
        loaded(),
      ),
    ).toEqual(["a.x: bad", "shared: bad"]);
  });

  it("checks what only the whole config or the plugins can say", () => {
    expect(
      problems(
        DEFAULT_FEATURES,
        loaded({
          siteExplorer: { bmc: { requestTimeoutMs: 30_000, explorationTimeoutMs: 10_000 } },
          lifecycle: { validationRunners: ["burn-in"] },
          inventory: { dhcp: { underlayPool: "10.0.0.1/24" } },
          fabrics: { infiniband: { fabric: "ufm" }, nvlink: { fabric: 3 } },
        }),
      ),
    ).toEqual([
      "inventory.dhcp.underlayPool: 10.0.0.1/24 has host bits set; the network is 10.0.0.0/24",
      "siteExplorer.bmc.explorationTimeoutMs (10000) must be at least siteExplorer.bmc.requestTimeoutMs (30000): one exploration makes many requests",
      'lifecycle.validationRunners: no loaded plugin registers a runner named "burn-in" (registered: none); add its plugin to plugins',
      'fabrics.infiniband.fabric: no loaded plugin registers an InfiniBand fabric named "ufm" (registered: none)',
      "fabrics.nvlink.fabric: must name a registered NVLink fabric",
    ]);
  });

  it("checks values given in code that the file's schema would have refused", () => {
    expect(
      problems(DEFAULT_FEATURES, loaded({ lifecycle: { maxRetries: 0 }, health: { historyLimit: 0 } })),
    ).toEqual(["lifecycle.maxRetries must be >= 1", "health.historyLimit must be >= 1"]);
  });
});
