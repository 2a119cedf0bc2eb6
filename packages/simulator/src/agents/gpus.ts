import type { Gpu, GpuPlatformInfo } from "./messages.js";

/** GB200 NVL72: 4 GPUs per compute tray, 18 trays per rack (one NVLink domain of 72 GPUs). */
export const SIMULATED_GPUS_PER_HOST = 4;
export const SIMULATED_TRAYS_PER_DOMAIN = 18;

/** The 0-based position of a host in its fleet, from its BMC id (`host-0001` → 0); null for other ids. */
export function simulatedHostIndex(bmcId: string): number | null {
  const match = /^host-(\d+)$/.exec(bmcId);
  return match ? Number(match[1]) - 1 : null;
}

/**
 * Where a simulated host's GPUs sit: hosts fill racks (NVLink domains) in fleet order, 18 trays each, so an
 * NMX-M simulator built from the same function (`racksmith simulate --nmxm`) knows every GPU the agents report.
 */
export function simulatedGpuPlatform(hostIndex: number): GpuPlatformInfo & { domainIndex: number } {
  const domainIndex = Math.floor(hostIndex / SIMULATED_TRAYS_PER_DOMAIN);
  const tray = hostIndex % SIMULATED_TRAYS_PER_DOMAIN;
  return { chassisSerial: `SIM-NVL-RACK-${domainIndex + 1}`, slot: tray + 1, tray, domainIndex };
}

/** The GPUs the simulated host agent reports (deterministic from the host's position and serial). */
export function simulatedHostGpus(bmcId: string, serial: string): Gpu[] {
  const index = simulatedHostIndex(bmcId);
  if (index === null) return [];
  const { chassisSerial, slot, tray } = simulatedGpuPlatform(index);
  return Array.from({ length: SIMULATED_GPUS_PER_HOST }, (_, gpu) => ({
    model: "NVIDIA GB200",
    serial: `${serial}-GPU${gpu}`,
    pciAddress: `0000:${(0x18 + gpu * 0x20).toString(16).padStart(2, "0")}:00.0`,
    platform: { chassisSerial, slot, tray },
  }));
}
