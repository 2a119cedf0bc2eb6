import type { ColumnType } from "kysely";
import type { Timestamp } from "../../../db/index.js";

type Json<T> = ColumnType<T, string, string>;

/** A tenant's NVLink logical partition (migration 0007_nvlink). */
export interface NvLinkLogicalPartitionsTable {
  id: string;
  name: string;
  tenant_org: string;
  deleted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The NMX-M partition a logical partition owns in one domain. */
export interface NvLinkPhysicalPartitionsTable {
  logical_partition_id: string;
  domain: string;
  nmxm_id: string;
  number: number | null;
  name: string;
  created_at: Timestamp;
}

/** One of a host's GPUs as the monitor last saw it. */
export interface NvLinkGpuObservation {
  /** 0-based index among the host's GPUs (the instance config's `deviceInstance`). */
  deviceInstance: number;
  gpuId: string;
  domain: string;
  deviceUid: string;
  /** Number of the NMX-M partition it is in, null for none. */
  partitionNumber: number | null;
  /** The NMX-M object id of that partition. */
  partitionId: string | null;
  /** The logical partition owning that partition; null for none, the default or a foreign one. */
  logicalPartitionId: string | null;
}

export interface NvLinkGpuObservationsTable {
  machine_id: string;
  gpus: Json<NvLinkGpuObservation[]>;
  /** Why the host's GPUs could not be mapped (no inventory, no match in NMX-M…). */
  problems: Json<string[]>;
  observed_at: Timestamp;
}

export type NvLinkOperationKind = "create" | "update" | "remove" | "remove_unknown";
export type NvLinkOperationOutcome = "pending" | "completed" | "failed" | "timedout" | "cancelled" | "error";

export interface NvLinkOperationsTable {
  /** The logical partition id, or `nmxm:<partition id>` for a partition Racksmith does not own. */
  target: string;
  domain: string;
  kind: NvLinkOperationKind;
  operation_id: string | null;
  status: NvLinkOperationOutcome;
  error: string | null;
  /** GPUs the operation added or removed. */
  gpus: Json<string[]>;
  started_at: Timestamp;
  finished_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

declare module "@racksmith/core/engine" {
  interface EngineTables {
    nvlink_logical_partitions: NvLinkLogicalPartitionsTable;
    nvlink_physical_partitions: NvLinkPhysicalPartitionsTable;
    nvlink_gpu_observations: NvLinkGpuObservationsTable;
    nvlink_operations: NvLinkOperationsTable;
  }
}
