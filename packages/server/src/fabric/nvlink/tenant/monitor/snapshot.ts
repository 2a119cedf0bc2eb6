import type { Database } from "../../../../db/index.js";
import type { InstanceConfig } from "../../../../lifecycle/tables.js";
import type { HostGpu } from "../gpuMapping/index.js";
import type { NvLinkOperationKind } from "../tables.js";

export interface HostSnapshot {
  hostId: string;
  gpus: HostGpu[];
  /** The live (not terminated) instance on the host. */
  instance: { id: string; config: InstanceConfig; releaseRequested: boolean } | null;
}

export interface DatabaseSnapshot {
  hosts: HostSnapshot[];
  logicalPartitions: Array<{ id: string; deleted: boolean }>;
  physicalPartitions: Array<{ logicalPartitionId: string; domain: string; nmxmId: string }>;
  /** Operations a previous pass gave up waiting for (timed out): still to be checked. */
  unfinished: Array<{
    target: string;
    domain: string;
    kind: NvLinkOperationKind;
    operationId: string;
    gpus: string[];
  }>;
}

/** What the monitor reads from the database at the start of a pass. */
export async function loadSnapshot(database: Database): Promise<DatabaseSnapshot> {
  const { db } = database;
  const [reports, instances, logical, physical, unfinished] = await Promise.all([
    db
      .selectFrom("machine_reports")
      .innerJoin("machines", "machines.id", "machine_reports.machine_id")
      .select(["machine_reports.machine_id as hostId", "machine_reports.inventory"])
      .where("machines.kind", "=", "host")
      .execute(),
    db
      .selectFrom("instances")
      .select(["id", "machine_id", "config", "release_requested_at"])
      .where("terminated_at", "is", null)
      .execute(),
    db.selectFrom("nvlink_logical_partitions").select(["id", "deleted_at"]).execute(),
    db
      .selectFrom("nvlink_physical_partitions")
      .select(["logical_partition_id", "domain", "nmxm_id"])
      .execute(),
    db
      .selectFrom("nvlink_operations")
      .select(["target", "domain", "kind", "operation_id", "gpus"])
      .where("status", "=", "timedout")
      .where("operation_id", "is not", null)
      .execute(),
  ]);
  const instanceOf = new Map(instances.map((i) => [i.machine_id, i]));
  return {
    hosts: reports.map((report) => {
      const instance = instanceOf.get(report.hostId);
      return {
        hostId: report.hostId,
        gpus: report.inventory?.gpus ?? [],
        instance: instance
          ? {
              id: instance.id,
              config: instance.config,
              releaseRequested: instance.release_requested_at !== null,
            }
          : null,
      };
    }),
    logicalPartitions: logical.map((row) => ({ id: row.id, deleted: row.deleted_at !== null })),
    physicalPartitions: physical.map((row) => ({
      logicalPartitionId: row.logical_partition_id,
      domain: row.domain,
      nmxmId: row.nmxm_id,
    })),
    unfinished: unfinished.map((row) => ({
      target: row.target,
      domain: row.domain,
      kind: row.kind,
      operationId: row.operation_id as string,
      gpus: row.gpus as string[],
    })),
  };
}
