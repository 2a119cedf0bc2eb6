import { posix } from "node:path";

/**
 * Top-level folders of `src/` that hold one feature per sub-folder rather than one feature: `fabric/`
 * (common, infiniband, nvlink) and `health/` (the pure model beside `monitor/` and `service/`). Their files
 * belong to `<folder>/<sub-folder>`; a file directly in them belongs to `<folder>`.
 */
export const FEATURE_CONTAINERS: readonly string[] = ["fabric", "health"];

/**
 * The feature a file belongs to, from its path under `src/`: its top-level folder (`lifecycle`), or the
 * second-level folder under a container (`fabric/infiniband`, `health/monitor`). A file directly in `src/`
 * is a node of its own (`index.ts`, `version.ts`): the package's entry re-exports every feature and is
 * imported by none, so it must not merge with any.
 */
export function featureOf(pathInSrc: string): string {
  const parts = pathInSrc.split("/");
  const [first, second] = parts;
  if (parts.length === 1 || first === undefined) return pathInSrc;
  if (FEATURE_CONTAINERS.includes(first) && parts.length > 2 && second !== undefined)
    return `${first}/${second}`;
  return first;
}

/** Candidate files of a relative specifier: `.js` written for a `.ts` source, or a folder's index. */
export function resolveRelative(importer: string, specifier: string, files: ReadonlySet<string>): string {
  const base = posix.normalize(posix.join(posix.dirname(importer), specifier));
  const stem = base.replace(/\.([cm]?)jsx?$/, "");
  const candidates = [
    base,
    ...(stem === base ? [] : [`${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.cts`]),
    `${base}.ts`,
    `${base}.tsx`,
    `${base}/index.ts`,
  ];
  return candidates.find((candidate) => files.has(candidate)) ?? base;
}

/** One import that crosses feature folders. */
export interface FeatureEdge {
  readonly from: string;
  readonly to: string;
  /** Paths under `src/`. */
  readonly file: string;
  readonly line: number;
  readonly target: string;
  readonly typeOnly: boolean;
}

/** A cycle between feature folders: its members, one shortest loop through them, and the imports on it. */
export interface FeatureCycle {
  /** Every feature of the strongly connected group, sorted. */
  readonly features: readonly string[];
  /** `a → b → … → a`, starting at the first feature. */
  readonly loop: readonly string[];
  /** The imports that make each step of the loop, in loop order. */
  readonly edges: readonly FeatureEdge[];
}

/** Groups of features that import each other, directly or through others (Tarjan's algorithm). */
export function findFeatureCycles(edges: readonly FeatureEdge[]): FeatureCycle[] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    if (from === to) continue;
    if (!next.has(from)) next.set(from, new Set());
    if (!next.has(to)) next.set(to, new Set());
    next.get(from)?.add(to);
  }
  const nodes = [...next.keys()].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const to of [...(next.get(node) ?? [])].sort()) {
      if (!index.has(to)) {
        connect(to);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(to) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      for (;;) {
        const member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        group.push(member);
        if (member === node) break;
      }
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of nodes) if (!index.has(node)) connect(node);

  return groups
    .sort((a, b) => (a[0] ?? "").localeCompare(b[0] ?? ""))
    .map((features) => {
      const loop = shortestLoop(features, next);
      const steps = loop.slice(1).map((to, i) => ({ from: loop[i], to }));
      return {
        features,
        loop,
        edges: steps.flatMap((step) =>
          edges.filter((edge) => edge.from === step.from && edge.to === step.to),
        ),
      };
    });
}

// Breadth-first from the group's first feature back to it, inside the group.
function shortestLoop(group: readonly string[], next: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const start = group[0] ?? "";
  const members = new Set(group);
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const node = queue.shift() ?? "";
    for (const to of [...(next.get(node) ?? [])].sort()) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0] ?? "") ?? start);
        return [...path, start];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start];
}

/**
 * Imports of another feature that skip its `index.ts`: `lifecycle/x.ts` importing `explorer/pairing.ts`
 * instead of `explorer/index.ts`. A root file's imports (the package entry) and imports of root files
 * (`version.ts`) have no index to go through, and generated code (`api/grpc/generated/…`, one file per
 * protobuf message) is imported where it is.
 */
export function bypassesIndex(edge: FeatureEdge): boolean {
  if (edge.from === edge.file || edge.to === edge.target) return false;
  if (edge.target.split("/").includes("generated")) return false;
  return edge.target !== `${edge.to}/index.ts`;
}
