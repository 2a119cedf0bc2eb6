import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_CONFIG, type LoadedConfig } from "@racksmith/server";
import { type SimulatedSite, type SimulatedSiteOptions, startSimulatedSite } from "@racksmith/simulator";
import type { E2eDatabase } from "./databases.js";
import { waitFor } from "./waitFor.js";

/** Every vendor driver of the repository, as an operator with all of them in racksmith.yaml has. */
export const ALL_DRIVERS: LoadedConfig = {
  config: {
    ...DEFAULT_CONFIG,
    plugins: [
      "@racksmith/driver-dell",
      "@racksmith/driver-hpe",
      "@racksmith/driver-lenovo",
      "@racksmith/driver-supermicro",
      "@racksmith/driver-nvidia-dpu",
    ],
  },
  file: undefined,
  baseDir: dirname(dirname(fileURLToPath(import.meta.url))),
};

/**
 * A simulated site (service, fleet and agents in this process) on the given database, in a temporary folder,
 * with every vendor driver and the `plugins` given.
 */
export async function simulatedSite(
  database: E2eDatabase,
  {
    plugins = [],
    ...options
  }: Omit<SimulatedSiteOptions, "base" | "dir" | "databaseUrl"> & { plugins?: string[] },
): Promise<SimulatedSite & { close(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "racksmith-e2e-sim-"));
  const base: LoadedConfig = {
    ...ALL_DRIVERS,
    config: { ...ALL_DRIVERS.config, plugins: [...ALL_DRIVERS.config.plugins, ...plugins] },
  };
  const site = await startSimulatedSite({
    ...options,
    base,
    dir,
    ...(database.kind === "postgres" ? { databaseUrl: database.url } : {}),
  });
  return {
    ...site,
    hostStates: () => site.hostStates(),
    stop: () => site.stop(),
    close: async () => {
      await site.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until the site has `count` managed hosts, every one Ready; their ids, in id order. */
export async function readyHosts(site: Pick<SimulatedSite, "hostStates">, count: number): Promise<string[]> {
  const ready = await waitFor(
    async () => {
      const states = await site.hostStates();
      return states.length === count && states.every((s) => s.state.state === "ready") && states;
    },
    { what: `${count} Ready hosts`, timeoutMs: 450_000, everyMs: 500 },
  );
  return ready.map((state) => state.objectId);
}
