import { chmod, mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { LoadedConfig } from "@racksmith/server";
import type { Fleet } from "../fleet/index.js";

/** The site BMC root password of simulated sites (every BMC is rotated to it). */
export const SIMULATED_SITE_PASSWORD = "Sim-Site-Root-2026!";

/** Config sections a simulated site runs with, on top of the operator's plugins and driver settings. */
export interface SimulatedSiteSections {
  database: Record<string, unknown>;
  server: { http: string; grpc: string };
  engine?: Record<string, unknown>;
  siteExplorer?: Record<string, unknown>;
  lifecycle?: Record<string, unknown>;
  health?: Record<string, unknown>;
  monitor?: Record<string, unknown>;
  /** The `auth` section (e.g. a short agent certificate life); absent: loopback, the bootstrap admin token. */
  auth?: Record<string, unknown>;
  log?: Record<string, unknown>;
  /** Tenant fabrics (`fabrics.infiniband`, `fabrics.nvlink`) of simulated fabric managers. */
  fabrics?: Record<string, unknown>;
  /** Plugins (folder paths) added to the operator's, e.g. a simulated fabric manager's plugin. */
  extraPlugins?: readonly string[];
}

/**
 * Timings that let a simulated rack move in seconds (NICo's defaults are minutes): quick periodic runs,
 * short power cycles and retries. Everything else keeps its production default.
 */
export function fastTimings(
  hosts: number,
): Required<Pick<SimulatedSiteSections, "engine" | "siteExplorer" | "lifecycle" | "monitor">> {
  return {
    engine: {
      // Every object is re-run each period, Ready hosts included: past 100 hosts the product's 30 s, and past
      // 1,000 about 33 hosts a second (10,000 hosts every 5 s would be more runs than the engine does). A host
      // waiting on its BMC or a timer is run again when due (lifecycle.bmcPollIntervalMs), one waiting on an
      // agent when the agent reports.
      iterationIntervalMs: hosts > 100 ? Math.max(30_000, hosts * 30) : 5_000,
      pollIntervalMs: 250,
      concurrency: Math.min(50, 10 + Math.ceil(hosts / 20)),
    },
    siteExplorer: {
      // Explorations are expensive (~60 requests per BMC): a run takes new BMCs first, then re-explores the
      // oldest; capping it keeps large fleets from re-exploring everything before the next new BMC.
      // New BMCs beyond a run's budget get a follow-up run at once; the interval is re-exploration, which in
      // a large fleet would otherwise take the CPU the lifecycle needs (bench/fleet).
      intervalMs: hosts > 100 ? 300_000 : 30_000,
      newEndpointDelayMs: 200,
      budget: Math.min(2 * hosts + 10, 300),
      concurrency: 30,
      maxIngestionsPerRun: hosts,
    },
    lifecycle: {
      powerDownWaitMs: 500,
      bmcPollIntervalMs: 1_000,
      retryIntervalMs: 1_000,
      failureRetryTimeMs: 120_000,
      // Virtual machines draw no power: no site-wide cap on reboots (a real site keeps its default).
      maxRebootsPerMinute: 0,
      jobTimeoutMs: 60_000,
      // Three polls of a large fleet's agents (bench/fleet polls every `hosts × 10 ms`): a DPU waiting for its
      // network config counts as reporting until its third missed poll, not from one poll to the next.
      dpuHeartbeatTimeoutMs: Math.max(30_000, hosts * 30),
    },
    // Sensors every 10 s rather than 60 s, so a simulated fault shows quickly; a large fleet at least the
    // default 60 s, and slower still past 1,000 hosts (host and DPU BMCs, about 33 polls/s in all): one machine
    // runs the whole simulated site, and 20,000 BMCs every 60 s would be more than its two cores (bench/monitor).
    monitor: {
      sensorIntervalMs: hosts > 100 ? Math.max(60_000, hosts * 60) : 10_000,
      jitterMs: hosts > 100 ? 10_000 : 1_000,
    },
  };
}

/**
 * Writes a site folder for a fleet as an operator would: racksmith.yaml (the operator config's plugins and
 * driver settings, the fleet as BMC proxy, the given sections), the site and factory passwords as 0600 files.
 * Returns the config file's path.
 */
export async function writeSimulatedSite(options: {
  dir: string;
  /** The fleet, or what is known of one running in another process. */
  fleet: Pick<Fleet, "url" | "factoryDefaults">;
  base: LoadedConfig;
  sections: SimulatedSiteSections;
}): Promise<string> {
  const { dir, fleet, base, sections } = options;
  await writeSecretFile(dir, "site-password", SIMULATED_SITE_PASSWORD);
  const factoryDefaults: Record<string, { username: string; passwordFile: string }> = {};
  for (const [vendor, credentials] of Object.entries(fleet.factoryDefaults)) {
    const passwordFile = join("factory", `${vendor}.password`);
    await writeSecretFile(dir, passwordFile, credentials.password);
    factoryDefaults[vendor] = { username: credentials.username, passwordFile };
  }
  const config = {
    plugins: [
      ...base.config.plugins.map((specifier) => absolutePlugin(specifier, base.baseDir)),
      ...(sections.extraPlugins ?? []),
    ],
    drivers: base.config.drivers,
    server: sections.server,
    database: sections.database,
    inventory: {
      credentials: {
        directory: "credentials",
        keyFile: "credentials.key",
        siteBmcRootPasswordFile: "site-password",
        factoryDefaults,
      },
    },
    engine: sections.engine ?? {},
    siteExplorer: {
      ...sections.siteExplorer,
      bmcProxy: fleet.url,
      bmc: { scheme: "http", ...(sections.siteExplorer?.bmc as object | undefined) },
    },
    lifecycle: sections.lifecycle ?? {},
    health: sections.health ?? {},
    monitor: sections.monitor ?? {},
    log: sections.log ?? { level: "warn" },
    ...(sections.auth ? { auth: sections.auth } : {}),
    ...(sections.fabrics ? { fabrics: sections.fabrics } : {}),
  };
  const file = join(dir, "racksmith.yaml");
  // JSON is YAML.
  await writeFile(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

/** A plugin named in the operator's config, as a path the site folder can load it from. */
function absolutePlugin(specifier: string, baseDir: string): string {
  if (specifier.startsWith(".") || isAbsolute(specifier)) return resolve(baseDir, specifier);
  const require = createRequire(join(baseDir, "racksmith.yaml"));
  return dirname(require.resolve(`${specifier}/package.json`));
}

/**
 * A secret of the site folder (`name` relative to `dir`, folders made as needed), readable by its owner only:
 * 0600 even when the file was already there (`writeFile`'s mode applies only to a new file).
 */
export async function writeSecretFile(dir: string, name: string, value: string): Promise<void> {
  const path = join(dir, name);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${value}\n`, { mode: 0o600 });
  await chmod(path, 0o600);
}
