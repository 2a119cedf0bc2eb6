/**
 * NMX-M's JSON models (PascalCase on the wire, as in its "NMX Manager Rest API" spec), shared by the client and
 * the simulator. Only the fields Racksmith reads are typed; NMX-M sends more.
 */

export interface WireLocationInfo {
  ChassisID?: string | number;
  ChassisSerialNumber?: string;
  SlotID?: number;
  TrayIndex?: number;
  HostID?: string | number;
}

export type WireGpuHealth = "HEALTHY" | "DEGRADED" | "NO_NVLINK" | "DEGRADED_BW" | "UNKNOWN";

export interface WireGpu {
  ID: string;
  Name?: string;
  DomainUUID: string;
  LocationInfo?: WireLocationInfo;
  /** A u64: may arrive as a number beyond 2^53, which the client reads as a string (see `parseJson`). */
  DeviceUID?: number | string;
  /** 1-based index of the GPU in its tray. */
  DeviceID?: number;
  DevicePcieID?: number;
  SystemUID?: number | string;
  VendorID?: number;
  ALIDList?: number[];
  PartitionID?: number | null;
  PortIDList?: string[];
  Health?: WireGpuHealth | string;
}

/**
 * Compute node. The reference lists only the endpoint, not the model: these fields mirror the GPU's
 * (ID, Name, DomainUUID, LocationInfo) plus the GPUs it carries, and every one but ID is optional.
 */
export interface WireComputeNode {
  ID: string;
  Name?: string;
  DomainUUID?: string;
  LocationInfo?: WireLocationInfo;
  GpuIDList?: string[];
}

/** A location-based partition member. */
export interface WireLocationMember {
  DomainUUID: string;
  ChassisID: string | number;
  SlotID: number;
  HostID: string | number;
  DeviceID: number;
}

/** Members are untagged: GPU id strings, location structs, or null. */
export type WireMember = string | WireLocationMember | null;

export type WirePartitionType = "ID_BASED" | "LOCATION_BASED" | "UNDEFINED";

export interface WirePartition {
  /** Object id (what PUT / DELETE address). */
  ID: string;
  /** Network number; 32766 is the default partition. */
  PartitionID: number;
  Name: string;
  Type?: WirePartitionType | string;
  Health?: string;
  Members?: WireMember[] | null;
  CreatedAt?: string;
  UpdatedAt?: string;
}

export type WireOperationStatus = "pending" | "in-progress" | "completed" | "failed" | "cancelled";

export interface WireOperation {
  ID: string;
  Status: WireOperationStatus | string;
  Percentage?: number;
  CurrentStep?: string;
  Request?: { Method?: string; URI?: string; Body?: unknown; Cancellable?: boolean };
  Result?: { Data?: unknown; Error?: string | null; Details?: string | null } | null;
}

/** What create / update / delete / cancel answer. */
export interface WireOperationRef {
  operationId: string;
}

export interface WireCreatePartition {
  Name: string;
  Members: string[];
}

export interface WireUpdatePartition {
  Members: string[];
}
