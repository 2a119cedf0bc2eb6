/**
 * What an NVLink fabric manager (NVIDIA NMX-M, or a simulator) reports and accepts, in the core's own terms.
 * Ids are the fabric manager's own strings; the core stores them but never interprets them.
 */

/** Identifies an NVLink domain (an NVL72 rack, or two NVL36 racks): the fabric's `DomainUUID`. */
export type NvLinkDomainId = string;

/**
 * Partition number of the fabric manager's default partition, which holds the GPUs nobody placed. A GPU found
 * there belongs to no tenant; the core removes it before adding the GPU to a tenant's partition.
 */
export const NVLINK_DEFAULT_PARTITION_NUMBER = 32766;

export type NvLinkGpuHealth = "healthy" | "degraded" | "degraded-bandwidth" | "no-nvlink" | "unknown";

/** Where a GPU sits; the core matches a host's reported (chassis serial, slot, tray) against it. */
export interface NvLinkGpuLocation {
  chassisId?: string;
  chassisSerial: string;
  /** Slot of the compute tray in the rack. */
  slot: number;
  /** Index of the compute tray. */
  tray: number;
  hostId?: string;
}

export interface NvLinkGpu {
  /** The fabric manager's GPU id (NMX-M `ID`); what partitions list as members. */
  id: string;
  name?: string;
  domain: NvLinkDomainId;
  location: NvLinkGpuLocation;
  /** 1-based index of the GPU in its tray (`device_instance` = deviceIndex − 1). */
  deviceIndex: number;
  /** The GPU's unique id (NMX-M `DeviceUID`, a u64) as a decimal string, so no precision is lost. */
  deviceUid: string;
  /** Number of the partition the GPU is in (NMX-M `PartitionID`), null when it is in none. */
  partitionNumber: number | null;
  health: NvLinkGpuHealth;
}

/** A compute tray (host) as the fabric sees it, with the GPUs it carries. */
export interface NvLinkComputeNode {
  id: string;
  name?: string;
  domain: NvLinkDomainId;
  location: NvLinkGpuLocation;
  gpuIds: string[];
}

export type NvLinkPartitionType = "id-based" | "location-based" | "undefined";

export type NvLinkPartitionHealth =
  | "healthy"
  | "degraded"
  | "degraded-bandwidth"
  | "unhealthy"
  | "new"
  | "unknown";

/** A physical partition: one per domain; a tenant's logical partition may own one in several domains. */
export interface NvLinkPartition {
  /** The fabric manager's object id (what update / delete take). */
  id: string;
  /** The partition's network number (NMX-M `PartitionID`). */
  number: number;
  name: string;
  /** Domain of its GPUs; null for a partition without members. */
  domain: NvLinkDomainId | null;
  /** Member GPU ids; location-based members are resolved to the GPUs at those locations. */
  gpus: string[];
  type: NvLinkPartitionType;
  health: NvLinkPartitionHealth;
  /** True for the fabric manager's default partition (number 32766). */
  isDefault: boolean;
  createdAt?: string;
  updatedAt?: string;
}

export type NvLinkOperationStatus = "pending" | "in-progress" | "completed" | "failed" | "cancelled";

/** Statuses an operation never leaves. */
export const NVLINK_FINAL_OPERATION_STATUSES: readonly NvLinkOperationStatus[] = [
  "completed",
  "failed",
  "cancelled",
];

export function isFinalNvLinkOperationStatus(status: NvLinkOperationStatus): boolean {
  return NVLINK_FINAL_OPERATION_STATUSES.includes(status);
}

/** What a create / update / delete / cancel returns: the fabric works asynchronously. */
export interface NvLinkOperationRef {
  operationId: string;
}

export interface NvLinkOperation {
  id: string;
  status: NvLinkOperationStatus;
  /** 0–100 when the fabric reports progress. */
  percentage?: number;
  /** What the operation was asked to do (`POST nmx/v1/partitions`), when the fabric reports it. */
  request?: { method: string; uri: string };
  /** The partition a completed create made, when the fabric reports it (else match by member set). */
  partitionId?: string;
  /** Why it failed, as the fabric said it (secret-free). */
  error?: string;
}

export interface NvLinkCreatePartitionRequest {
  /** The fabric manager limits names (NMX-M: 244 characters); adapters truncate as needed. */
  name: string;
  /** GPU ids, all in one domain. */
  gpus: readonly string[];
}

export interface NvLinkUpdatePartitionRequest {
  /** The complete new member list (not a delta). */
  gpus: readonly string[];
}

/** Options every call accepts. */
export interface NvLinkCallOptions {
  /** Aborts the call (the state handler's deadline, shutdown). */
  signal?: AbortSignal;
}

export interface NvLinkListOptions extends NvLinkCallOptions {
  /** Only GPUs / nodes / partitions of this domain (filtered by the adapter when the fabric cannot). */
  domain?: NvLinkDomainId;
}

export interface NvLinkWaitOptions extends NvLinkCallOptions {
  /** Give up after this long (default: the fabric's configured operation timeout). */
  timeoutMs?: number;
  /** Poll this often (default: the fabric's configured poll interval). */
  pollMs?: number;
}
