import type { GpuAction, GpuPlacement } from "./decide.js";

/** One GPU's decision, with what building operations needs. */
export interface GpuDecision {
  gpuId: string;
  domain: string;
  placement: GpuPlacement;
  action: GpuAction;
  /** The logical partition to add it to (for `add`). */
  desired: string | null;
}

/** A physical partition Racksmith owns (a logical partition's in one domain). */
export interface OwnedPartition {
  logicalPartitionId: string;
  domain: string;
  /** The NMX-M partition id. */
  partitionId: string;
}

/** What to ask NMX-M for; `target` is the logical partition, or `nmxm:<id>` for a partition not ours. */
export type PlannedOperation =
  | { kind: "create"; target: string; domain: string; name: string; gpus: string[]; changed: string[] }
  | {
      kind: "update";
      target: string;
      domain: string;
      partitionId: string;
      gpus: string[];
      changed: string[];
    }
  | {
      kind: "remove" | "remove_unknown";
      target: string;
      domain: string;
      partitionId: string;
      changed: string[];
    };

export const foreignTarget = (partitionId: string): string => `nmxm:${partitionId}`;

/** The name a created partition gets: its logical partition, then its GPUs (NICo's `{lp_id}{gpu ids}`). */
export function partitionName(logicalPartitionId: string, gpus: readonly string[]): string {
  return `${logicalPartitionId}/${gpus.join(",")}`;
}

/**
 * Turns per-GPU decisions into one operation per partition (NICo builds them per logical partition and
 * domain): adds to an owned partition and removals merge into one `update` with the complete member list; a
 * partition left empty is deleted; adds with no owned partition in that domain `create` one. Owned partitions
 * found empty are deleted too.
 */
export function planOperations(input: {
  decisions: readonly GpuDecision[];
  /** Current members of every NMX-M partition, by partition id. */
  members: ReadonlyMap<string, readonly string[]>;
  owned: readonly OwnedPartition[];
}): PlannedOperation[] {
  const ownedBy = new Map(input.owned.map((p) => [`${p.logicalPartitionId}|${p.domain}`, p]));
  const ownerOf = new Map(input.owned.map((p) => [p.partitionId, p]));
  const finalMembers = new Map<string, Set<string>>();
  const touched = new Map<string, { target: string; domain: string; changed: string[] }>();
  const creates = new Map<string, { target: string; domain: string; gpus: string[] }>();
  const membersOf = (partitionId: string): Set<string> => {
    let set = finalMembers.get(partitionId);
    if (!set) {
      set = new Set(input.members.get(partitionId) ?? []);
      finalMembers.set(partitionId, set);
    }
    return set;
  };
  const touch = (partitionId: string, target: string, domain: string, gpuId: string): void => {
    const entry = touched.get(partitionId) ?? { target, domain, changed: [] };
    entry.changed.push(gpuId);
    touched.set(partitionId, entry);
  };

  for (const decision of input.decisions) {
    const { placement, gpuId, domain } = decision;
    if (
      (decision.action === "remove" || decision.action === "remove_from_unknown") &&
      placement.kind !== "none"
    ) {
      membersOf(placement.partitionId).delete(gpuId);
      const target =
        placement.kind === "ours" ? placement.logicalPartitionId : foreignTarget(placement.partitionId);
      touch(placement.partitionId, target, domain, gpuId);
    } else if (decision.action === "add" && decision.desired !== null) {
      const owned = ownedBy.get(`${decision.desired}|${domain}`);
      if (owned && input.members.has(owned.partitionId)) {
        membersOf(owned.partitionId).add(gpuId);
        touch(owned.partitionId, decision.desired, domain, gpuId);
      } else {
        const key = `${decision.desired}|${domain}`;
        const entry = creates.get(key) ?? { target: decision.desired, domain, gpus: [] };
        entry.gpus.push(gpuId);
        creates.set(key, entry);
      }
    }
  }

  const operations: PlannedOperation[] = [];
  for (const [partitionId, { target, domain, changed }] of touched) {
    const gpus = [...membersOf(partitionId)].sort();
    const foreign = !ownerOf.has(partitionId);
    if (gpus.length > 0) operations.push({ kind: "update", target, domain, partitionId, gpus, changed });
    else
      operations.push({ kind: foreign ? "remove_unknown" : "remove", target, domain, partitionId, changed });
  }
  for (const owned of input.owned) {
    const current = input.members.get(owned.partitionId);
    if (current && current.length === 0 && !touched.has(owned.partitionId)) {
      operations.push({
        kind: "remove",
        target: owned.logicalPartitionId,
        domain: owned.domain,
        partitionId: owned.partitionId,
        changed: [],
      });
    }
  }
  for (const { target, domain, gpus } of creates.values()) {
    const sorted = [...gpus].sort();
    operations.push({
      kind: "create",
      target,
      domain,
      name: partitionName(target, sorted),
      gpus: sorted,
      changed: sorted,
    });
  }
  return operations;
}
