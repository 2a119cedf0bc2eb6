/** A directed graph over string ids, edges in the order they should be followed. */
export interface Digraph {
  nodes: readonly string[];
  edges: ReadonlyArray<{ from: string; to: string }>;
}

/**
 * Edges (by index) that close a cycle when the graph is walked depth-first from `start`, then from every node
 * not reached yet. Dropping them leaves a DAG whose order follows the walk: retries and "back to the start"
 * transitions are what gets dropped, not the forward path.
 */
export function backEdges(graph: Digraph, start: string): Set<number> {
  const outgoing = new Map<string, number[]>();
  graph.edges.forEach((edge, index) => {
    outgoing.set(edge.from, [...(outgoing.get(edge.from) ?? []), index]);
  });
  const state = new Map<string, "open" | "done">();
  const back = new Set<number>();
  // Iterative walk: graphs are small, but a recursion depth that follows the input is still a needless risk.
  const walk = (root: string) => {
    if (state.has(root)) return;
    const stack: Array<{ node: string; next: number }> = [{ node: root, next: 0 }];
    state.set(root, "open");
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as { node: string; next: number };
      const edges = outgoing.get(frame.node) ?? [];
      if (frame.next >= edges.length) {
        state.set(frame.node, "done");
        stack.pop();
        continue;
      }
      const index = edges[frame.next++] as number;
      const to = (graph.edges[index] as { to: string }).to;
      const seen = state.get(to);
      if (seen === "open") back.add(index);
      else if (seen === undefined) {
        state.set(to, "open");
        stack.push({ node: to, next: 0 });
      }
    }
  };
  walk(start);
  for (const node of graph.nodes) walk(node);
  return back;
}

/** Longest-path layer of every node over the edges not in `skip` (which must leave a DAG); roots are 0. */
export function longestPathLayers(graph: Digraph, skip: ReadonlySet<number>): Map<string, number> {
  const layer = new Map(graph.nodes.map((node) => [node, 0]));
  const kept = graph.edges.filter((edge, index) => !skip.has(index) && edge.from !== edge.to);
  const indegree = new Map(graph.nodes.map((node) => [node, 0]));
  for (const edge of kept) indegree.set(edge.to, (indegree.get(edge.to) ?? 0) + 1);
  const ready = graph.nodes.filter((node) => indegree.get(node) === 0);
  while (ready.length > 0) {
    const node = ready.shift() as string;
    for (const edge of kept) {
      if (edge.from !== node) continue;
      layer.set(edge.to, Math.max(layer.get(edge.to) ?? 0, (layer.get(node) ?? 0) + 1));
      const left = (indegree.get(edge.to) ?? 0) - 1;
      indegree.set(edge.to, left);
      if (left === 0) ready.push(edge.to);
    }
  }
  return layer;
}
