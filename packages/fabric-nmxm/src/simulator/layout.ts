import type { WireGpuHealth } from "../client/index.js";

/** One simulated GPU, located like NMX-M reports it. */
export interface SimulatedGpuSpec {
  /** NMX-M GPU id (default: derived from the domain and position). */
  id?: string;
  name?: string;
  chassisSerial: string;
  chassisId?: string;
  slot: number;
  tray: number;
  /** 1-based index in the tray (default: position among the tray's GPUs). */
  deviceIndex?: number;
  hostId?: string;
  /** u64 as a decimal string (default: unique, beyond 2^53 to exercise precision). */
  deviceUid?: string;
  health?: WireGpuHealth;
}

export interface SimulatedDomainSpec {
  /** DomainUUID. */
  id: string;
  gpus: readonly SimulatedGpuSpec[];
}

/** A generated layout: `domainCount` NVL racks of `gpusPerDomain` GPUs, `gpusPerTray` per compute tray. */
export interface GeneratedLayout {
  domainCount: number;
  gpusPerDomain: number;
  /** GB200 compute trays carry 4 GPUs. */
  gpusPerTray?: number;
}

/** A GPU with every field filled in. */
export interface SimulatedGpu {
  id: string;
  name: string;
  domain: string;
  chassisSerial: string;
  chassisId: string;
  slot: number;
  tray: number;
  deviceIndex: number;
  hostId: string;
  deviceUid: string;
  health: WireGpuHealth;
}

// Above 2^53, so a client that reads DeviceUID as a JavaScript number visibly loses precision.
const DEVICE_UID_BASE = 0xb0de_0000_0000_0000n;

export function domainUuid(index: number): string {
  return `5e1a0000-0000-4000-8000-${String(index + 1).padStart(12, "0")}`;
}

export function buildGpus(layout: readonly SimulatedDomainSpec[] | GeneratedLayout): SimulatedGpu[] {
  const domains = Array.isArray(layout) ? layout : generate(layout as GeneratedLayout);
  const gpus: SimulatedGpu[] = [];
  domains.forEach((domain, domainIndex) => {
    const perTray = new Map<string, number>();
    for (const spec of domain.gpus) {
      const trayKey = `${spec.chassisSerial}|${spec.slot}|${spec.tray}`;
      const position = (perTray.get(trayKey) ?? 0) + 1;
      perTray.set(trayKey, position);
      const deviceIndex = spec.deviceIndex ?? position;
      const serial = gpus.length;
      gpus.push({
        id: spec.id ?? `gpu-${domainIndex + 1}-${spec.tray}-${deviceIndex}`,
        name: spec.name ?? "NVIDIA GB200 NVL",
        domain: domain.id,
        chassisSerial: spec.chassisSerial,
        chassisId: spec.chassisId ?? spec.chassisSerial,
        slot: spec.slot,
        tray: spec.tray,
        deviceIndex,
        hostId: spec.hostId ?? `${spec.chassisSerial}-${spec.tray}`,
        deviceUid: spec.deviceUid ?? String(DEVICE_UID_BASE + BigInt(serial)),
        health: spec.health ?? "HEALTHY",
      });
    }
  });
  const ids = new Set<string>();
  for (const gpu of gpus) {
    if (ids.has(gpu.id)) throw new Error(`NmxmSimulator: GPU id ${gpu.id} is used twice`);
    ids.add(gpu.id);
  }
  return gpus;
}

function generate(layout: GeneratedLayout): SimulatedDomainSpec[] {
  const perTray = layout.gpusPerTray ?? 4;
  return Array.from({ length: layout.domainCount }, (_, d) => ({
    id: domainUuid(d),
    gpus: Array.from({ length: layout.gpusPerDomain }, (_, g) => ({
      chassisSerial: `SIM-NVL-${d + 1}`,
      tray: Math.floor(g / perTray),
      slot: Math.floor(g / perTray) + 1,
      deviceIndex: (g % perTray) + 1,
    })),
  }));
}
