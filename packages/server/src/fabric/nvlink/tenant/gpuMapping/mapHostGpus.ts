import type { NvLinkGpu } from "@racksmith/core/nvlink";

/** A GPU as the host agent reports it (the inventory's `gpus[]`). */
export interface HostGpu {
  serial?: string;
  platform: { chassisSerial: string; slot: number; tray: number } | null;
}

/** A host GPU matched to the NMX-M GPU at its location. */
export interface MappedGpu {
  /** 0-based position among the host's GPUs: the instance config's `deviceInstance`. */
  deviceInstance: number;
  gpu: NvLinkGpu;
}

export interface GpuMapping {
  gpus: MappedGpu[];
  /** Why some GPUs could not be mapped; empty when every one was. */
  problems: string[];
}

const locationKey = (chassisSerial: string, slot: number, tray: number): string =>
  `${chassisSerial}|${slot}|${tray}`;

/**
 * Matches a host's GPUs to NMX-M's by (chassis serial, slot, tray), as NICo does at discovery. A tray holds
 * several GPUs: the k-th host GPU of a location is the NMX-M GPU with the k-th lowest device index there.
 */
export function mapHostGpus(hostGpus: readonly HostGpu[], fabricGpus: readonly NvLinkGpu[]): GpuMapping {
  const byLocation = new Map<string, NvLinkGpu[]>();
  for (const gpu of fabricGpus) {
    const key = locationKey(gpu.location.chassisSerial, gpu.location.slot, gpu.location.tray);
    byLocation.set(key, [...(byLocation.get(key) ?? []), gpu]);
  }
  for (const list of byLocation.values()) list.sort((a, b) => a.deviceIndex - b.deviceIndex);
  const taken = new Map<string, number>();
  const gpus: MappedGpu[] = [];
  const problems: string[] = [];
  hostGpus.forEach((hostGpu, deviceInstance) => {
    const platform = hostGpu.platform;
    if (!platform) {
      problems.push(`GPU ${deviceInstance} has no platform info (chassis serial, slot, tray)`);
      return;
    }
    const key = locationKey(platform.chassisSerial, platform.slot, platform.tray);
    const position = taken.get(key) ?? 0;
    taken.set(key, position + 1);
    const gpu = byLocation.get(key)?.[position];
    if (!gpu) {
      problems.push(
        `GPU ${deviceInstance} (chassis ${platform.chassisSerial}, slot ${platform.slot}, tray ${platform.tray}) is not in NMX-M`,
      );
      return;
    }
    gpus.push({ deviceInstance, gpu });
  });
  return { gpus, problems };
}
