import type { Logger } from "@racksmith/core";
import { InvalidArgumentError } from "@racksmith/core";
import type { HealthReport } from "@racksmith/core/health";
import type { InfiniBandFabric } from "@racksmith/core/infiniband";
import { formatPkey, pkeyInRanges } from "@racksmith/core/infiniband";
import type { Kysely } from "kysely";
import type { RacksmithDatabase } from "../../../db/index.js";
import type { InstanceFabric, InstanceFabricTarget } from "../../../lifecycle/index.js";
import { desiredPkeys, hostGuids, interfaceGuid } from "./hosts/index.js";
import {
  alertKeys,
  boundInRanges,
  hostIbPorts,
  hostIbReport,
  readFabricHealth,
  readHostObservation,
  syncProblemsFrom,
  writeHostObservation,
} from "./monitor/index.js";
import { readPartitions } from "./partitions/index.js";

export interface InfiniBandInstanceFabricDeps {
  db: Kysely<RacksmithDatabase>;
  fabric: InfiniBandFabric;
  /** Engine state of a partition (`ready`, …), undefined when it is gone. */
  partitionState(id: string): Promise<string | undefined>;
  recordReport(hostId: string, report: HealthReport): Promise<void>;
  /** Asks the monitor to run soon (something waits on it). */
  pokeMonitor(): void;
  logger: Logger;
  clock?: () => Date;
}

/**
 * The lifecycle's view of InfiniBand (`config.infiniband` of instances): the config check against the host's
 * ports and the tenant's partitions, and sync/release answers from the monitor's stored observation.
 */
export function infinibandInstanceFabric(deps: InfiniBandInstanceFabricDeps): InstanceFabric {
  const clock = deps.clock ?? (() => new Date());
  const ranges = () => deps.fabric.settings.pkeyRanges;
  return {
    name: "infiniband",

    async checkConfig(target: InstanceFabricTarget, field: string) {
      const interfaces = target.config.infiniband?.interfaces ?? [];
      if (interfaces.length === 0) return;
      const ports = await hostIbPorts(deps.db, target.hostId);
      const partitions = new Map((await readPartitions(deps.db)).map((p) => [p.id, p]));
      for (const [i, iface] of interfaces.entries()) {
        const at = `${field}.interfaces[${i}]`;
        interfaceGuid(ports, iface, at);
        const partition = partitions.get(iface.partitionId);
        const bad = (why: string) =>
          new InvalidArgumentError(`${at}.partitionId: ${why}`, { details: { field: `${at}.partitionId` } });
        // Another org's partition is not there for this tenant: the same answer as one that does not exist.
        if (!partition || partition.deleted_at || partition.tenant_org !== target.tenantOrg)
          throw bad(`no InfiniBand partition ${iface.partitionId} of tenant ${target.tenantOrg}`);
        const state = await deps.partitionState(partition.id);
        if (state !== "ready")
          throw bad(`partition ${iface.partitionId} is not Ready (it is ${state ?? "gone"})`);
      }
    },

    async syncProblems(target: InstanceFabricTarget) {
      const ports = await hostIbPorts(deps.db, target.hostId);
      const guids = hostGuids(ports);
      if (guids.length === 0) return [];
      const partitions = await readPartitions(deps.db);
      const pkeyOf = new Map(partitions.filter((p) => !p.deleted_at).map((p) => [p.id, p.pkey]));
      const desired = desiredPkeys(
        ports,
        { id: target.instanceId, config: target.config, releaseRequested: false },
        (id) => pkeyOf.get(id),
      );
      const stored = await readHostObservation(deps.db, target.hostId);
      const problems = syncProblemsFrom(stored?.observation ?? undefined, guids, desired, ranges());
      if (problems.length > 0) deps.pokeMonitor();
      return problems;
    },

    async releaseProblems(host: { hostId: string; instanceId: string }) {
      const guids = hostGuids(await hostIbPorts(deps.db, host.hostId));
      if (guids.length === 0) return [];
      const health = await readFabricHealth(deps.db, deps.fabric.name);
      const stored = await readHostObservation(deps.db, host.hostId);
      if (health && !health.reachable) {
        // Termination goes on; the host stays out of allocation until the monitor has unbound its GUIDs.
        const report = hostIbReport({ cleanupPending: guids, portsDown: [] }, clock().toISOString());
        await deps.recordReport(host.hostId, report);
        await writeHostObservation(
          deps.db,
          host.hostId,
          { cleanupGuids: guids, reportedAlerts: alertKeys(report) },
          clock(),
        );
        deps.logger.warn(
          { hostId: host.hostId, guids },
          "InfiniBand fabric unreachable at release: IbCleanupPending recorded",
        );
        return [];
      }
      const problems = boundInRanges(stored?.observation ?? undefined, guids, ranges());
      if (problems.length > 0) deps.pokeMonitor();
      return problems;
    },

    async detachHost(host: { hostId: string; dpuIds: string[] }, signal: AbortSignal) {
      const guids = hostGuids(await hostIbPorts(deps.db, host.hostId));
      if (guids.length === 0) return;
      const stored = await readHostObservation(deps.db, host.hostId);
      const pkeys = new Set<number>((await readPartitions(deps.db)).map((p) => p.pkey));
      for (const iface of stored?.observation?.interfaces ?? [])
        for (const pkey of iface.pkeys) if (pkeyInRanges(pkey, ranges())) pkeys.add(pkey);
      for (const pkey of pkeys) {
        try {
          await deps.fabric.unbindGuids(pkey, guids, { signal });
        } catch (error) {
          deps.logger.warn(
            { hostId: host.hostId, pkey: formatPkey(pkey), err: (error as Error).message },
            "force delete: could not unbind the host's GUIDs (best effort)",
          );
        }
      }
    },
  };
}
