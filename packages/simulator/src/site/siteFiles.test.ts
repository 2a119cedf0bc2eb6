import { chmod, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_CONFIG } from "@racksmith/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fleet, generateScenario, startFleet } from "../fleet/index.js";
import { fastTimings, SIMULATED_SITE_PASSWORD, writeSimulatedSite } from "./siteFiles.js";

let fleet: Fleet;
let root: string;

beforeAll(async () => {
  fleet = await startFleet({ scenario: generateScenario({ hosts: 2, seed: 3 }) });
  root = await mkdtemp(join(tmpdir(), "racksmith-site-files-"));
});

afterAll(async () => {
  await fleet?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe("writeSimulatedSite", () => {
  it("writes the operator's plugins as folders, the fleet as BMC proxy, the sections, and 0600 secrets", async () => {
    const dir = join(root, "new-site");
    // The operator's config sits here: a package it names resolves from here, a path is relative to here.
    const operator = dirname(fileURLToPath(import.meta.url));
    const base = {
      config: { ...DEFAULT_CONFIG, plugins: ["@racksmith/fabric-ufm", "./local-plugin"] },
      file: join(operator, "racksmith.yaml"),
      baseDir: operator,
    };
    const file = await writeSimulatedSite({
      dir,
      fleet,
      base,
      sections: {
        database: { dataDir: "data" },
        server: { http: "127.0.0.1:0", grpc: "127.0.0.1:0" },
        siteExplorer: { budget: 7, bmc: { timeoutMs: 1_000 } },
        extraPlugins: ["/plugins/extra"],
      },
    });
    expect(file).toBe(join(dir, "racksmith.yaml"));
    const config = JSON.parse(await readFile(file, "utf8"));
    const ufmFolder = dirname(createRequire(import.meta.url).resolve("@racksmith/fabric-ufm/package.json"));
    expect(config.plugins).toEqual([ufmFolder, join(operator, "local-plugin"), "/plugins/extra"]);
    expect(config.siteExplorer).toEqual({
      budget: 7,
      bmcProxy: fleet.url,
      bmc: { scheme: "http", timeoutMs: 1_000 },
    });
    expect(config.log).toEqual({ level: "warn" });
    expect(config).not.toHaveProperty("fabrics");
    expect(config.inventory.credentials.siteBmcRootPasswordFile).toBe("site-password");
    expect(await readFile(join(dir, "site-password"), "utf8")).toBe(`${SIMULATED_SITE_PASSWORD}\n`);
    expect(await mode(join(dir, "site-password"))).toBe(0o600);
    const factory = config.inventory.credentials.factoryDefaults as Record<string, { passwordFile: string }>;
    expect(Object.keys(factory).sort()).toEqual(Object.keys(fleet.factoryDefaults).sort());
    for (const [vendor, { passwordFile }] of Object.entries(factory)) {
      expect(await readFile(join(dir, passwordFile), "utf8")).toBe(
        `${fleet.factoryDefaults[vendor]?.password}\n`,
      );
      expect(await mode(join(dir, passwordFile))).toBe(0o600);
    }
  });

  it("makes a secret that was already there readable by its owner only again", async () => {
    const dir = join(root, "kept-site");
    const options = {
      dir,
      fleet,
      base: { config: DEFAULT_CONFIG, file: undefined, baseDir: root },
      sections: { database: { dataDir: "data" }, server: { http: "127.0.0.1:0", grpc: "127.0.0.1:0" } },
    };
    await writeSimulatedSite(options);
    await writeFile(join(dir, "site-password"), "old\n");
    await chmod(join(dir, "site-password"), 0o644);
    await writeSimulatedSite(options);
    expect(await readFile(join(dir, "site-password"), "utf8")).toBe(`${SIMULATED_SITE_PASSWORD}\n`);
    expect(await mode(join(dir, "site-password"))).toBe(0o600);
  });
});

describe("fastTimings", () => {
  it("re-explores and polls sensors less often in a large fleet, and caps concurrency and budget", () => {
    const small = fastTimings(8);
    const large = fastTimings(2_000);
    expect(small.siteExplorer).toMatchObject({ intervalMs: 30_000, budget: 26, maxIngestionsPerRun: 8 });
    expect(large.siteExplorer).toMatchObject({
      intervalMs: 300_000,
      budget: 300,
      maxIngestionsPerRun: 2_000,
    });
    expect(small.monitor).toEqual({ sensorIntervalMs: 10_000, jitterMs: 1_000 });
    expect(large.monitor).toEqual({ sensorIntervalMs: 120_000, jitterMs: 10_000 });
    expect(fastTimings(500).monitor.sensorIntervalMs).toBe(60_000);
    expect(fastTimings(10_000).monitor.sensorIntervalMs).toBe(600_000);
    expect(large.engine.concurrency).toBe(50);
  });
});
