import type { IbGuid, Pkey } from "@racksmith/core/infiniband";
import type { InstanceConfig } from "../../../../lifecycle/index.js";
import { type HostIbPort, interfaceGuid } from "./hostPorts.js";

/** A host's instance as the monitor sees it. */
export interface HostInstance {
  id: string;
  config: InstanceConfig;
  /** Release asked: nothing is desired any more. */
  releaseRequested: boolean;
}

/**
 * The pkeys each of the host's GUIDs belongs in: a GUID is in a partition's pkey exactly while a live (not
 * release-requested) instance on the host configures an interface in it. Interfaces whose partition has no
 * pkey (deleted) or whose port the host lacks are skipped (the config check refused them already).
 */
export function desiredPkeys(
  ports: readonly HostIbPort[],
  instance: HostInstance | undefined,
  pkeyOfPartition: (partitionId: string) => Pkey | undefined,
): Map<IbGuid, Set<Pkey>> {
  const desired = new Map<IbGuid, Set<Pkey>>();
  if (!instance || instance.releaseRequested) return desired;
  for (const iface of instance.config.infiniband?.interfaces ?? []) {
    const pkey = pkeyOfPartition(iface.partitionId);
    if (pkey === undefined) continue;
    let guid: IbGuid;
    try {
      guid = interfaceGuid(ports, iface, "infiniband");
    } catch {
      continue;
    }
    const set = desired.get(guid) ?? new Set<Pkey>();
    set.add(pkey);
    desired.set(guid, set);
  }
  return desired;
}

/** The GUIDs an instance's config tracks (their ports going down is an alert). */
export function trackedGuids(ports: readonly HostIbPort[], instance: HostInstance | undefined): Set<IbGuid> {
  const tracked = new Set<IbGuid>();
  if (!instance || instance.releaseRequested) return tracked;
  for (const iface of instance.config.infiniband?.interfaces ?? []) {
    try {
      tracked.add(interfaceGuid(ports, iface, "infiniband"));
    } catch {
      // Not a port of the host: nothing to track.
    }
  }
  return tracked;
}
