import {
  domainUuid,
  NmxmSimulator,
  type NmxmSimulatorOptions,
  type SimulatedDomainSpec,
} from "@racksmith/fabric-nmxm/simulator";
import { simulatedGpuPlatform, simulatedHostGpus, simulatedHostIndex } from "../agents/index.js";
import type { Fleet } from "../fleet/index.js";
import { type SimulatedFabricManager, startSimulatedFabricManager } from "./fabricManager.js";

/** What `nmxm: true | {...}` in the simulated site's options configures. */
export interface SimulatedNmxmOptions {
  /** `fabrics.nvlink.monitorIntervalMs` (default 2 s, so the rack moves in seconds). */
  monitorIntervalMs?: number;
  /** `fabrics.nvlink.operationTimeoutMs` (default 5 s). */
  operationTimeoutMs?: number;
  /** `fabrics.nvlink.operationPollMs` (default 100 ms). */
  operationPollMs?: number;
  /** Passed to the simulator (operation delay, faults, …); the GPUs are the fleet's. */
  simulator?: Omit<NmxmSimulatorOptions, "domains" | "username" | "password">;
}

/** The NMX-M simulator of a site and its `fabrics.nvlink` section. */
export type SimulatedNmxm = SimulatedFabricManager<NmxmSimulator>;

const PASSWORD = "simulated-nmxm-password";

/**
 * The NMX-M domains of a fleet: the GPUs its simulated host agents report (GB200 style: 4 per host/tray,
 * 18 trays per domain, domains in host order), so every reported GPU is found in NMX-M.
 */
export function fleetNvLinkDomains(fleet: Fleet): SimulatedDomainSpec[] {
  const domains = new Map<
    number,
    SimulatedDomainSpec & { gpus: NonNullable<SimulatedDomainSpec["gpus"]>[number][] }
  >();
  for (const bmc of fleet.bmcs) {
    const index = bmc.kind === "host" ? simulatedHostIndex(bmc.id) : null;
    if (index === null) continue;
    const { domainIndex } = simulatedGpuPlatform(index);
    const domain = domains.get(domainIndex) ?? { id: domainUuid(domainIndex), gpus: [] };
    simulatedHostGpus(bmc.id, bmc.serial).forEach((gpu, k) => {
      if (!gpu.platform) return;
      domain.gpus.push({ ...gpu.platform, deviceIndex: k + 1, hostId: bmc.id });
    });
    domains.set(domainIndex, domain);
  }
  return [...domains.entries()].sort(([a], [b]) => a - b).map(([, domain]) => domain);
}

/** An NMX-M simulator with the fleet's GPUs and the `fabrics.nvlink` section pointing at it (password in a 0600 file). */
export async function startSimulatedNmxm(
  fleet: Fleet,
  dir: string,
  options: SimulatedNmxmOptions = {},
): Promise<SimulatedNmxm> {
  return startSimulatedFabricManager({
    dir,
    pluginPackage: "@racksmith/fabric-nmxm",
    secretFile: "nmxm-password",
    secret: PASSWORD,
    start: () =>
      NmxmSimulator.start({
        ...options.simulator,
        domains: fleetNvLinkDomains(fleet),
        username: "admin",
        password: PASSWORD,
      }),
    section: (simulator) => ({
      endpoint: simulator.url,
      username: "admin",
      passwordFile: "nmxm-password",
      monitorIntervalMs: options.monitorIntervalMs ?? 2_000,
      operationTimeoutMs: options.operationTimeoutMs ?? 5_000,
      operationPollMs: options.operationPollMs ?? 100,
    }),
  });
}
