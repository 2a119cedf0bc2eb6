import type { StateGraph } from "@racksmith/server";

type GraphEdge = StateGraph["edges"][number];

/**
 * Edges into one target that come from all over the graph with one reason (the managed host's "→ failed"
 * and "→ forceDeletion"). Drawn edge by edge they would swamp the picture, so the renderers draw a family
 * compactly: a note when it comes from every state, else one mark per source.
 */
export interface EdgeFamily {
  target: string;
  when: string;
  sources: readonly string[];
  /** Every other node of the graph is a source: a note says so instead of any edge. */
  fromEverywhere: boolean;
}

/** A target reached from this many groups (besides its own) with one reason is a family, not a few edges. */
const FAMILY_MIN_GROUPS = 3;

/** The edge families of a graph and the edges left to draw one by one. */
export function splitEdgeFamilies(graph: StateGraph): { families: EdgeFamily[]; edges: GraphEdge[] } {
  const groupOf = new Map(graph.nodes.map((node) => [node.id, node.group]));
  const byTarget = new Map<string, GraphEdge[]>();
  for (const edge of graph.edges) byTarget.set(edge.to, [...(byTarget.get(edge.to) ?? []), edge]);

  const families: EdgeFamily[] = [];
  for (const node of graph.nodes) {
    const incoming = byTarget.get(node.id) ?? [];
    const reasons = new Set(incoming.map((edge) => edge.when));
    const sourceGroups = new Set(
      incoming.map((edge) => groupOf.get(edge.from)).filter((group) => group !== node.group),
    );
    if (reasons.size !== 1 || sourceGroups.size < FAMILY_MIN_GROUPS) continue;
    const sources = [...new Set(incoming.map((edge) => edge.from))];
    families.push({
      target: node.id,
      when: incoming[0]?.when ?? "",
      sources,
      fromEverywhere: graph.nodes.every((other) => other.id === node.id || sources.includes(other.id)),
    });
  }
  const collapsed = new Set(families.map((family) => family.target));
  return { families, edges: graph.edges.filter((edge) => !collapsed.has(edge.to)) };
}

/** Groups in the order their first node appears, each with its nodes. */
export function groupsOf(graph: StateGraph): Array<{ group: string; nodes: string[] }> {
  const groups = new Map<string, string[]>();
  for (const node of graph.nodes) groups.set(node.group, [...(groups.get(node.group) ?? []), node.id]);
  return [...groups].map(([group, nodes]) => ({ group, nodes }));
}

/** What a node shows inside its group: the step after `group/`, or the whole label. */
export function shortLabel(id: string, group: string): string {
  return id.startsWith(`${group}/`) && id.length > group.length + 1 ? id.slice(group.length + 1) : id;
}
