/** Tenant-facing state of a logical partition, derived on every read. */
export type LogicalPartitionState = "Ready" | "Deleting" | "Error";

export interface PhysicalPartitionView {
  domain: string;
  /** The NMX-M partition id and number. */
  nmxmId: string;
  number: number | null;
  name: string;
  /** Member GPUs as the monitor last observed them (NMX-M GPU ids). */
  gpus: string[];
}

export interface LogicalPartitionView {
  id: string;
  name: string;
  tenant: string;
  state: LogicalPartitionState;
  /** Why it is in Error (the last failed operation), when it is. */
  reason?: string;
  physicalPartitions: PhysicalPartitionView[];
  createdAt: string;
  deletedAt: string | null;
}
