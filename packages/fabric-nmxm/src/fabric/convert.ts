import {
  NVLINK_DEFAULT_PARTITION_NUMBER,
  type NvLinkComputeNode,
  type NvLinkGpu,
  type NvLinkGpuHealth,
  type NvLinkGpuLocation,
  type NvLinkOperation,
  type NvLinkOperationStatus,
  type NvLinkPartition,
  type NvLinkPartitionHealth,
  type NvLinkPartitionType,
} from "@racksmith/core/nvlink";
import type {
  WireComputeNode,
  WireGpu,
  WireLocationInfo,
  WireLocationMember,
  WireOperation,
  WirePartition,
} from "../client/index.js";

const GPU_HEALTH: Readonly<Record<string, NvLinkGpuHealth>> = {
  HEALTHY: "healthy",
  DEGRADED: "degraded",
  DEGRADED_BW: "degraded-bandwidth",
  NO_NVLINK: "no-nvlink",
};

const PARTITION_HEALTH: Readonly<Record<string, NvLinkPartitionHealth>> = {
  HEALTHY: "healthy",
  DEGRADED: "degraded",
  DEGRADED_BANDWIDTH: "degraded-bandwidth",
  UNHEALTHY: "unhealthy",
  NEW: "new",
};

const PARTITION_TYPE: Readonly<Record<string, NvLinkPartitionType>> = {
  ID_BASED: "id-based",
  LOCATION_BASED: "location-based",
};

const OPERATION_STATUS: Readonly<Record<string, NvLinkOperationStatus>> = {
  pending: "pending",
  "in-progress": "in-progress",
  in_progress: "in-progress",
  completed: "completed",
  failed: "failed",
  cancelled: "cancelled",
  canceled: "cancelled",
};

function optionalString(value: string | number | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : String(value);
}

function toLocation(info: WireLocationInfo | undefined): NvLinkGpuLocation {
  const chassisId = optionalString(info?.ChassisID);
  const hostId = optionalString(info?.HostID);
  return {
    chassisSerial: info?.ChassisSerialNumber ?? "",
    slot: info?.SlotID ?? 0,
    tray: info?.TrayIndex ?? 0,
    ...(chassisId !== undefined ? { chassisId } : {}),
    ...(hostId !== undefined ? { hostId } : {}),
  };
}

export function toGpu(gpu: WireGpu): NvLinkGpu {
  return {
    id: gpu.ID,
    ...(gpu.Name ? { name: gpu.Name } : {}),
    domain: gpu.DomainUUID,
    location: toLocation(gpu.LocationInfo),
    deviceIndex: gpu.DeviceID ?? 0,
    deviceUid: gpu.DeviceUID === undefined ? "" : String(gpu.DeviceUID),
    partitionNumber: typeof gpu.PartitionID === "number" ? gpu.PartitionID : null,
    health: GPU_HEALTH[String(gpu.Health)] ?? "unknown",
  };
}

export function toComputeNode(node: WireComputeNode): NvLinkComputeNode {
  return {
    id: node.ID,
    ...(node.Name ? { name: node.Name } : {}),
    domain: node.DomainUUID ?? "",
    location: toLocation(node.LocationInfo),
    gpuIds: [...(node.GpuIDList ?? [])],
  };
}

function locationKey(member: {
  DomainUUID?: string;
  ChassisID?: string | number;
  SlotID?: number;
  HostID?: string | number;
  DeviceID?: number;
}): string {
  return [member.DomainUUID, member.ChassisID, member.SlotID, member.HostID, member.DeviceID].join("|");
}

/** What partitions need from the GPU list: each GPU's domain, and GPUs by location for location members. */
export class GpuIndex {
  private readonly domainById = new Map<string, string>();
  private readonly idByLocation = new Map<string, string>();

  constructor(gpus: readonly WireGpu[]) {
    for (const gpu of gpus) {
      this.domainById.set(gpu.ID, gpu.DomainUUID);
      this.idByLocation.set(
        locationKey({ DomainUUID: gpu.DomainUUID, ...gpu.LocationInfo, DeviceID: gpu.DeviceID }),
        gpu.ID,
      );
    }
  }

  domainOf(gpuId: string): string | undefined {
    return this.domainById.get(gpuId);
  }

  gpuAt(member: WireLocationMember): string | undefined {
    return this.idByLocation.get(locationKey(member));
  }
}

export function toPartition(partition: WirePartition, index: GpuIndex): NvLinkPartition {
  const gpus: string[] = [];
  let domain: string | null = null;
  for (const member of partition.Members ?? []) {
    if (member === null) continue;
    if (typeof member === "string") {
      gpus.push(member);
      domain ??= index.domainOf(member) ?? null;
    } else {
      domain ??= member.DomainUUID ?? null;
      // A location with no GPU behind it (an empty slot) has nothing to isolate: leave it out.
      const id = index.gpuAt(member);
      if (id !== undefined) gpus.push(id);
    }
  }
  return {
    id: partition.ID,
    number: partition.PartitionID,
    name: partition.Name,
    domain,
    gpus,
    type: PARTITION_TYPE[String(partition.Type)] ?? "undefined",
    health: PARTITION_HEALTH[String(partition.Health)] ?? "unknown",
    isDefault: partition.PartitionID === NVLINK_DEFAULT_PARTITION_NUMBER,
    ...(partition.CreatedAt ? { createdAt: partition.CreatedAt } : {}),
    ...(partition.UpdatedAt ? { updatedAt: partition.UpdatedAt } : {}),
  };
}

/** Returns undefined for a status NMX-M does not document (the caller reports a bad response). */
export function toOperation(operation: WireOperation): NvLinkOperation | undefined {
  const status = OPERATION_STATUS[operation.Status.toLowerCase()];
  if (status === undefined) return undefined;
  const error = [operation.Result?.Error, operation.Result?.Details].filter(Boolean).join(": ");
  const data = operation.Result?.Data as { ID?: unknown } | null | undefined;
  const request = operation.Request;
  return {
    id: operation.ID,
    status,
    ...(typeof operation.Percentage === "number" ? { percentage: operation.Percentage } : {}),
    ...(request?.Method && request.URI ? { request: { method: request.Method, uri: request.URI } } : {}),
    ...(typeof data?.ID === "string" ? { partitionId: data.ID } : {}),
    ...(error ? { error } : {}),
  };
}
