/** Where a GPU is now, as the monitor classifies NMX-M's partition of it. */
export type GpuPlacement =
  | { kind: "none" }
  | { kind: "ours"; logicalPartitionId: string; partitionId: string }
  | { kind: "default"; partitionId: string }
  | { kind: "unknown"; partitionId: string };

export interface GpuDecisionInput {
  placement: GpuPlacement;
  /** The host carries a live instance that is not being released. */
  hasInstance: boolean;
  /** The logical partition the instance's config puts this GPU in; null for none. */
  desired: string | null;
  /** The desired logical partition exists and is not marked deleted. */
  desiredUsable: boolean;
}

/** `skip`: the instance wants a partition that is missing or being deleted; nothing is done for it. */
export type GpuAction = "none" | "add" | "remove" | "remove_from_unknown" | "skip";

/**
 * NICo's decision table (NvlPartitionMonitor) for one GPU. A GPU that must move from one logical partition to
 * another is only removed here; it is added on a later pass, once it is in no partition.
 */
export function decideGpu(input: GpuDecisionInput): GpuAction {
  const { placement, hasInstance, desired, desiredUsable } = input;
  if (!hasInstance) {
    // Without a tenant, no GPU may stay in a tenant's (or anyone's) partition; the default one is fine.
    if (placement.kind === "ours") return "remove";
    if (placement.kind === "unknown") return "remove_from_unknown";
    return "none";
  }
  switch (placement.kind) {
    case "ours":
      return placement.logicalPartitionId === desired ? "none" : "remove";
    case "default":
      return desired === null ? "none" : "remove_from_unknown";
    case "unknown":
      return "remove_from_unknown";
    case "none":
      if (desired === null) return "none";
      return desiredUsable ? "add" : "skip";
  }
}
