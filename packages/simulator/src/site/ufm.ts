import { UfmSimulator, type UfmSimulatorOptions } from "@racksmith/fabric-ufm/testing";
import { simulatedIbPorts } from "../agents/index.js";
import type { Fleet } from "../fleet/index.js";
import { type SimulatedFabricManager, startSimulatedFabricManager } from "./fabricManager.js";

/** What `ufm: true | {...}` in the simulated site's options configures. */
export interface SimulatedUfmOptions {
  /** `fabrics.infiniband.pkeyRanges` (default one range 0x100..0x200). */
  pkeyRanges?: Array<{ start: string | number; end: string | number }>;
  /** `fabrics.infiniband.monitorIntervalMs` (default 2 s, so the rack moves in seconds). */
  monitorIntervalMs?: number;
  /** Other keys of `fabrics.infiniband` (qos, maxPartitionsPerTenant, allowInsecureFabric, …). */
  extra?: Record<string, unknown>;
  /** Passed to the simulator (security settings, faults, …); ports are the fleet's. */
  simulator?: Omit<UfmSimulatorOptions, "ports" | "auth">;
}

/** The UFM simulator of a site and its `fabrics.infiniband` section. */
export type SimulatedUfm = SimulatedFabricManager<UfmSimulator>;

const TOKEN = "simulated-ufm-token";

/**
 * A UFM simulator whose host ports are the simulated hosts' IB GUIDs (the ones their host agents report),
 * with token auth, and the `fabrics.infiniband` section pointing the site at it (token in a 0600 file).
 */
export async function startSimulatedUfm(
  fleet: Fleet,
  dir: string,
  options: SimulatedUfmOptions = {},
): Promise<SimulatedUfm> {
  const ports = fleet.bmcs
    .filter((bmc) => bmc.kind === "host")
    .flatMap((bmc) =>
      simulatedIbPorts(bmc.id).map((port) => ({
        guid: port.guid,
        systemName: bmc.id,
        name: `${port.guid}_${port.port}`,
        deviceName: `mlx5_${port.port - 1}`,
      })),
    );
  return startSimulatedFabricManager({
    dir,
    pluginPackage: "@racksmith/fabric-ufm",
    secretFile: "ufm-token",
    secret: TOKEN,
    start: () => UfmSimulator.start({ ...options.simulator, ports, auth: { token: TOKEN } }),
    section: (simulator) => ({
      endpoint: simulator.url,
      auth: "token",
      tokenFile: "ufm-token",
      pkeyRanges: options.pkeyRanges ?? [{ start: "0x100", end: "0x200" }],
      monitorIntervalMs: options.monitorIntervalMs ?? 2_000,
      ...options.extra,
    }),
  });
}
