import type { FeatureEdge } from "./featureGraph.ts";

/**
 * Files whose job is to import every feature of their package: the feature list and the config schema
 * assembled from each feature's section. Their imports are not edges of the feature graph (the features
 * import the contracts beside them, so counting these would make every feature a cycle with them).
 */
export interface CompositionFile {
  readonly package: string;
  /** Path under `src/`. */
  readonly file: string;
  readonly reason: string;
}

export const COMPOSITION_FILES: readonly CompositionFile[] = [
  {
    package: "@racksmith/server",
    file: "service/features.ts",
    reason: "DEFAULT_FEATURES, the features `racksmith serve` runs: it imports each feature's ServiceFeature",
  },
  {
    package: "@racksmith/server",
    file: "config/schema.ts",
    reason: "the config file's schema, assembled from each feature's section schema",
  },
];

/**
 * Known cycles between feature folders that need a real refactor, each cut at one step `from → to` (all the
 * imports of that step are allowed). Keep this list short; an entry whose step no longer closes a cycle is
 * reported as stale, so remove it with the refactor that breaks its cycle.
 */
export interface AllowedStep {
  readonly package: string;
  readonly from: string;
  readonly to: string;
  readonly reason: string;
}

export const ALLOWED_STEPS: readonly AllowedStep[] = [
  {
    package: "@racksmith/server",
    from: "explorer",
    to: "lifecycle",
    reason:
      "explorer/machineLifecycle.ts labels a host's lifecycle state (lifecycle/states.ts) for the machine views, " +
      "while the lifecycle reads machines through the explorer's store; the views belong with the lifecycle",
  },
  {
    package: "@racksmith/server",
    from: "health/service",
    to: "lifecycle",
    reason:
      "the health service reads the host snapshot (lifecycle/machine/snapshot.ts) and machine lookup " +
      "(lifecycle/agents/machineLookup.ts), while the lifecycle feature builds the health service",
  },
  {
    package: "@racksmith/server",
    from: "health/monitor",
    to: "lifecycle",
    reason:
      "the BMC monitor opens BMCs through lifecycle/bmc/bmcSession.ts, while the lifecycle feature starts the " +
      "monitor; BMC access belongs in a folder of its own",
  },
  {
    package: "@racksmith/driver-dell",
    from: "setup",
    to: "idrac",
    reason:
      "setup/bootDevices.ts takes idrac/nicInventory.ts's NIC type (type only); the type belongs in setup/",
  },
];

/** The feature graph the cycle rule looks at: without composition files' imports and allowed steps. */
export function checkedEdges(
  packageName: string,
  edges: readonly FeatureEdge[],
  composition: readonly CompositionFile[],
  allowed: readonly AllowedStep[],
): FeatureEdge[] {
  return edges.filter(
    (edge) =>
      !composition.some((c) => c.package === packageName && c.file === edge.file) &&
      !allowed.some((a) => a.package === packageName && a.from === edge.from && a.to === edge.to),
  );
}

/**
 * Allowed steps that no longer close a cycle: the step is gone, or nothing leads from its `to` back to its
 * `from` any more (composition files aside).
 */
export function staleSteps(
  edgesByPackage: ReadonlyMap<string, readonly FeatureEdge[]>,
  composition: readonly CompositionFile[],
  allowed: readonly AllowedStep[],
): AllowedStep[] {
  return allowed.filter((step) => {
    const edges = checkedEdges(step.package, edgesByPackage.get(step.package) ?? [], composition, []);
    return (
      !edges.some((e) => e.from === step.from && e.to === step.to) || !reaches(edges, step.to, step.from)
    );
  });
}

function reaches(edges: readonly FeatureEdge[], start: string, goal: string): boolean {
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length) {
    const node = queue.shift();
    for (const edge of edges) {
      if (edge.from !== node || seen.has(edge.to)) continue;
      if (edge.to === goal) return true;
      seen.add(edge.to);
      queue.push(edge.to);
    }
  }
  return false;
}
