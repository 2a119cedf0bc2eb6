import type { StateGraph } from "@racksmith/server";
import { type EdgeFamily, groupsOf, shortLabel, splitEdgeFamilies } from "./families.js";
import { backEdges, longestPathLayers } from "./layering.js";

/**
 * Geometry of the SVG drawing. Groups are columns, ordered by longest-path layering of the group graph from
 * the initial state's group; inside a group its states stack in the order of their own longest-path layers.
 * Edge families (→ failed, → forceDeletion) are not laid out: their targets sit in a band below, sources get a
 * mark or a note says "from every state". Text is monospace so its width is known without a font engine.
 */

export interface Point {
  x: number;
  y: number;
}
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface PlacedNode extends Rect {
  id: string;
  group: string;
  label: string;
  initial: boolean;
  final: boolean;
  /** Indexes into `families` of the families this node is a (marked) source of. */
  marks: number[];
}
export interface PlacedGroup extends Rect {
  name: string;
}
export interface RoutedEdge {
  from: string;
  to: string;
  when: string;
  /** `back`: closes a cycle (a retry, or the way round to an earlier state); drawn dashed. */
  style: "forward" | "back";
  points: Point[];
  loop: boolean;
  /** Inline label (between two stacked states), or a numbered badge explained in the legend. */
  label?: Point & { lines: string[] };
  badge?: Point & { number: number };
}
export interface DiagramLayout {
  width: number;
  height: number;
  nodes: PlacedNode[];
  groups: PlacedGroup[];
  edges: RoutedEdge[];
  families: Array<EdgeFamily & { note: Point; text: string }>;
  legend: Array<Point & { text: string }>;
}

export const TEXT = { node: 12, label: 10, group: 12, advance: 0.6 } as const;
const MARGIN = 24;
const NODE_H = 28;
const ROW_GAP = 44;
const GROUP_PAD = 12;
const GROUP_HEADER = 26;
const SLOT_GAP = 16;
const LOOP_ROOM = 22;
const LANE = 18;
const GAP_BASE = 44;
const STACK_GAP = 24;
const LINE = 14;

const textWidth = (text: string, size: number) => Math.ceil(text.length * size * TEXT.advance);

type FlowEdge = { from: string; to: string; when: string };
type Route =
  | { kind: "loop" }
  | { kind: "straight" }
  | { kind: "side"; lane: number }
  | { kind: "adjacent"; gap: number; lane: number }
  | {
      kind: "over" | "under";
      exitGap: number;
      exitLane: number;
      entryGap: number;
      entryLane: number;
      channel: number;
    };

export function layoutGraph(graph: StateGraph): DiagramLayout {
  const { families, edges } = splitEdgeFamilies(graph);
  const sinks = new Set(families.map((family) => family.target));
  const groupOf = new Map(graph.nodes.map((node) => [node.id, node.group]));
  const flowNodes = graph.nodes.map((node) => node.id).filter((id) => !sinks.has(id));
  const flowEdges = edges.filter((edge) => !sinks.has(edge.from) && !sinks.has(edge.to));
  const start = sinks.has(graph.initial) ? (flowNodes[0] ?? graph.initial) : graph.initial;

  // Layers: states by longest path from the initial one, groups likewise over the edges between groups.
  const back = backEdges({ nodes: flowNodes, edges: flowEdges }, start);
  const layer = longestPathLayers({ nodes: flowNodes, edges: flowEdges }, back);
  const groups = groupsOf(graph)
    .map(({ group, nodes }) => ({ group, nodes: nodes.filter((id) => !sinks.has(id)) }))
    .filter((group) => group.nodes.length > 0);
  const groupEdges = flowEdges
    .filter((edge, index) => !back.has(index) && groupOf.get(edge.from) !== groupOf.get(edge.to))
    .map((edge) => ({ from: groupOf.get(edge.from) as string, to: groupOf.get(edge.to) as string }));
  const groupGraph = { nodes: groups.map((group) => group.group), edges: groupEdges };
  const columnOf = longestPathLayers(groupGraph, backEdges(groupGraph, groupOf.get(start) ?? ""));

  // Row and slot of each state inside its group.
  const cell = new Map<string, { row: number; slot: number }>();
  const rowsOf = new Map<string, string[][]>();
  for (const { group, nodes } of groups) {
    const layers = [...new Set(nodes.map((id) => layer.get(id) ?? 0))].sort((a, b) => a - b);
    const rows = layers.map((value) => nodes.filter((id) => (layer.get(id) ?? 0) === value));
    rows.forEach((row, r) => {
      row.forEach((id, slot) => {
        cell.set(id, { row: r, slot });
      });
    });
    rowsOf.set(group, rows);
  }

  // Routes, and the lanes they take in groups, gaps between columns and the channels above and below.
  const columns = Math.max(0, ...groups.map((group) => columnOf.get(group.group) ?? 0)) + 1;
  const sideLanes = new Map<string, number>();
  const gapLanes = new Array<number>(columns + 1).fill(0);
  const takeLane = (gap: number) => {
    const lane = gapLanes[gap] ?? 0;
    gapLanes[gap] = lane + 1;
    return lane;
  };
  let over = 0;
  let under = 0;
  const routes = flowEdges.map((edge): Route => {
    const from = cell.get(edge.from) as { row: number; slot: number };
    const to = cell.get(edge.to) as { row: number; slot: number };
    const gFrom = groupOf.get(edge.from) as string;
    const gTo = groupOf.get(edge.to) as string;
    if (edge.from === edge.to) return { kind: "loop" };
    if (gFrom === gTo) {
      if (from.slot === to.slot && to.row === from.row + 1) return { kind: "straight" };
      sideLanes.set(gFrom, (sideLanes.get(gFrom) ?? 0) + 1);
      return { kind: "side", lane: Math.abs(to.row - from.row) };
    }
    const cFrom = columnOf.get(gFrom) ?? 0;
    const cTo = columnOf.get(gTo) ?? 0;
    const exitGap = cFrom + 1;
    const exitLane = takeLane(exitGap);
    if (cTo === cFrom + 1) return { kind: "adjacent", gap: exitGap, lane: exitLane };
    const entryLane = takeLane(cTo);
    return cTo > cFrom
      ? { kind: "over", exitGap, exitLane, entryGap: cTo, entryLane, channel: over++ }
      : { kind: "under", exitGap, exitLane, entryGap: cTo, entryLane, channel: under++ };
  });

  // Side lanes: the shorter a detour, the closer to the states it runs (so detours nest, not cross).
  for (const { group } of groups) {
    const side = routes
      .map((route, index) => ({ route, index }))
      .filter(
        ({ route, index }) => route.kind === "side" && groupOf.get(flowEdges[index]?.from ?? "") === group,
      )
      .sort((a, b) => (a.route as { lane: number }).lane - (b.route as { lane: number }).lane);
    side.forEach(({ index }, rank) => {
      routes[index] = { kind: "side", lane: rank };
    });
  }

  // Sizes.
  const nodeWidth = Math.max(
    120,
    ...graph.nodes.map((node) => textWidth(shortLabel(node.id, node.group), TEXT.node) + 20),
  );
  const loops = new Set(
    flowEdges.filter((edge) => edge.from === edge.to).map((edge) => groupOf.get(edge.from)),
  );
  const groupSize = new Map(
    groups.map(({ group }) => {
      const rows = rowsOf.get(group) ?? [];
      const slots = Math.max(1, ...rows.map((row) => row.length));
      const lanes = sideLanes.get(group) ?? 0;
      const right = lanes > 0 || loops.has(group) ? LOOP_ROOM + lanes * LANE : 0;
      const inner = slots * nodeWidth + (slots - 1) * SLOT_GAP;
      const width = Math.max(2 * GROUP_PAD + inner + right, 2 * GROUP_PAD + textWidth(group, TEXT.group));
      const height = GROUP_HEADER + rows.length * NODE_H + (rows.length - 1) * ROW_GAP + GROUP_PAD;
      return [group, { width, height, inner }];
    }),
  );
  const columnWidth = Array.from({ length: columns }, (_, c) =>
    Math.max(
      0,
      ...groups.filter((g) => columnOf.get(g.group) === c).map((g) => groupSize.get(g.group)?.width ?? 0),
    ),
  );
  const gapWidth = gapLanes.map((lanes) => GAP_BASE + lanes * LANE);

  // Positions: columns left to right with their gaps, groups stacked top-down in their column.
  const gapX: number[] = [];
  const columnX: number[] = [];
  let x = MARGIN;
  for (let c = 0; c <= columns; c++) {
    gapX.push(x);
    x += gapWidth[c] ?? GAP_BASE;
    columnX.push(x);
    x += columnWidth[c] ?? 0;
  }
  const contentRight = gapX[columns] as number;
  const laneX = (gap: number, lane: number) => (gapX[gap] as number) + GAP_BASE / 2 + lane * LANE;
  const overY = (channel: number) => MARGIN + 8 + channel * LANE;
  const top = MARGIN + (over > 0 ? 16 + over * LANE : 0) + 8;

  const placedGroups: PlacedGroup[] = [];
  const laneStart = new Map<string, number>();
  const placed = new Map<string, PlacedNode>();
  const columnBottom = new Array<number>(columns).fill(top);
  for (const { group } of groups) {
    const c = columnOf.get(group) ?? 0;
    const size = groupSize.get(group) as { width: number; height: number; inner: number };
    const box = {
      name: group,
      x: columnX[c] as number,
      y: columnBottom[c] as number,
      width: columnWidth[c] ?? 0,
      height: size.height,
    };
    placedGroups.push(box);
    laneStart.set(group, box.x + GROUP_PAD + size.inner + LOOP_ROOM);
    columnBottom[c] = box.y + box.height + STACK_GAP;
    (rowsOf.get(group) ?? []).forEach((row, r) => {
      row.forEach((id, slot) => {
        placed.set(id, {
          id,
          group,
          label: shortLabel(id, group),
          x: box.x + GROUP_PAD + slot * (nodeWidth + SLOT_GAP),
          y: box.y + GROUP_HEADER + r * (NODE_H + ROW_GAP),
          width: nodeWidth,
          height: NODE_H,
          initial: id === graph.initial,
          final: graph.final.includes(id),
          marks: [],
        });
      });
    });
  }
  const contentBottom = Math.max(top, ...columnBottom) - STACK_GAP;
  const underY = (channel: number) => contentBottom + 16 + channel * LANE;
  let y = contentBottom + (under > 0 ? 16 + under * LANE : 0) + 32;

  // The band of family targets, then one note per family.
  let sinkX = MARGIN + GAP_BASE;
  for (const node of graph.nodes.filter((n) => sinks.has(n.id))) {
    placed.set(node.id, {
      id: node.id,
      group: node.group,
      label: node.id,
      x: sinkX,
      y,
      width: nodeWidth,
      height: NODE_H,
      initial: node.id === graph.initial,
      final: graph.final.includes(node.id),
      marks: [],
    });
    sinkX += nodeWidth + 2 * SLOT_GAP;
  }
  if (sinks.size > 0) y += NODE_H + 20;
  const notedFamilies = families.map((family, index) => {
    if (!family.fromEverywhere) {
      for (const source of family.sources) placed.get(source)?.marks.push(index);
    }
    const text = family.fromEverywhere
      ? `every state → ${family.target}: ${family.when}`
      : `states marked → ${family.target}: ${family.when} (${family.sources.length} states)`;
    const note = { x: MARGIN + GAP_BASE, y };
    y += LINE + 4;
    return { ...family, note, text };
  });

  // Edge geometry; every edge that is not labelled inline gets a numbered badge explained in the legend.
  const node = (id: string) => placed.get(id) as PlacedNode;
  const ports = assignPorts(flowEdges, routes, node);
  const right = (n: PlacedNode, index: number): Point => ({
    x: n.x + n.width,
    y: ports.get(`${index}:${n.id}:right`) ?? n.y + n.height / 2,
  });
  const left = (n: PlacedNode, index: number): Point => ({
    x: n.x,
    y: ports.get(`${index}:${n.id}:left`) ?? n.y + n.height / 2,
  });
  const legendTexts: string[] = [];
  const routed: RoutedEdge[] = [];
  const labelChars = Math.floor(nodeWidth / (TEXT.label * TEXT.advance));
  const badge = (edge: FlowEdge, at: Point) => {
    legendTexts.push(`${legendTexts.length + 1}  ${edge.from} → ${edge.to}: ${edge.when}`);
    return { ...at, number: legendTexts.length };
  };

  flowEdges.forEach((edge, index) => {
    const route = routes[index] as Route;
    const a = node(edge.from);
    const b = node(edge.to);
    const style = back.has(index) || edge.from === edge.to ? "back" : "forward";
    const base = {
      from: edge.from,
      to: edge.to,
      when: edge.when,
      style,
      loop: route.kind === "loop",
    } as const;
    if (route.kind === "straight") {
      const from = { x: a.x + a.width / 2, y: a.y + a.height };
      const to = { x: b.x + b.width / 2, y: b.y };
      const lines = wrap(edge.when, labelChars);
      routed.push({ ...base, points: [from, to], label: { x: from.x, y: (from.y + to.y) / 2, lines } });
      return;
    }
    let points: Point[];
    const out = right(a, index);
    if (route.kind === "loop") {
      const back = { x: out.x, y: ports.get(`${index}:${a.id}:loop`) ?? out.y + 8 };
      points = [out, { x: out.x + LOOP_ROOM - 6, y: out.y }, { x: out.x + LOOP_ROOM - 6, y: back.y }, back];
    } else if (route.kind === "side") {
      const lx = (laneStart.get(a.group) ?? out.x + LOOP_ROOM) + route.lane * LANE;
      const into = right(b, index);
      points = [out, { x: lx, y: out.y }, { x: lx, y: into.y }, into];
    } else if (route.kind === "adjacent") {
      const lx = laneX(route.gap, route.lane);
      const into = left(b, index);
      points = [out, { x: lx, y: out.y }, { x: lx, y: into.y }, into];
    } else {
      const ex = laneX(route.exitGap, route.exitLane);
      const nx = laneX(route.entryGap, route.entryLane);
      const cy = route.kind === "over" ? overY(route.channel) : underY(route.channel);
      const into = left(b, index);
      points = [out, { x: ex, y: out.y }, { x: ex, y: cy }, { x: nx, y: cy }, { x: nx, y: into.y }, into];
    }
    // A loop is too small to carry its badge: it goes just above it.
    const spot = route.kind === "loop" ? { x: out.x + LOOP_ROOM / 2, y: a.y - 4 } : badgeSpot(points);
    routed.push({ ...base, points, badge: badge(edge, spot) });
  });
  // Edges into or out of a family target (rare): a straight line between the boxes.
  for (const edge of edges.filter((e) => sinks.has(e.from) || sinks.has(e.to))) {
    const a = node(edge.from);
    const b = node(edge.to);
    const points = [
      { x: a.x + a.width / 2, y: a.y < b.y ? a.y + a.height : a.y },
      { x: b.x + b.width / 2, y: a.y < b.y ? b.y : b.y + b.height },
    ];
    routed.push({
      from: edge.from,
      to: edge.to,
      when: edge.when,
      style: "forward",
      loop: false,
      points,
      badge: badge(edge, badgeSpot(points)),
    });
  }

  // Legend: numbered edges in as many columns as fit the drawing's width.
  y += 8;
  const entryWidth = Math.max(0, ...legendTexts.map((text) => textWidth(text, TEXT.label))) + 24;
  const drawingWidth = Math.max(
    contentRight,
    sinkX,
    ...notedFamilies.map((f) => f.note.x + textWidth(f.text, TEXT.label)),
  );
  const perRow = Math.max(1, Math.floor((drawingWidth - MARGIN - GAP_BASE) / entryWidth));
  const legendRows = Math.ceil(legendTexts.length / perRow);
  const legend = legendTexts.map((text, i) => ({
    text,
    x: MARGIN + GAP_BASE + Math.floor(i / legendRows) * entryWidth,
    y: y + (i % legendRows) * LINE,
  }));
  y += legendRows * LINE;

  return {
    width: Math.max(drawingWidth, ...legend.map((entry) => entry.x + entryWidth)) + MARGIN,
    height: y + MARGIN,
    nodes: [...placed.values()],
    groups: placedGroups,
    edges: routed,
    families: notedFamilies,
    legend,
  };
}

/**
 * Where each edge meets the side of a state, keyed `edge:state:side`. Several edges on one side are spread
 * over it, ordered so that the detours nest instead of crossing: edges heading up leave from the top, inner
 * lanes first; edges heading down from the bottom, outer lanes first. A loop takes two ports (`loop` is its
 * return).
 */
function assignPorts(
  edges: readonly FlowEdge[],
  routes: readonly Route[],
  node: (id: string) => PlacedNode,
): Map<string, number> {
  type Port = { key: string; direction: number; outer: number };
  const sides = new Map<string, Port[]>();
  const add = (id: string, side: "right" | "left", port: Port) => {
    const list = sides.get(`${id}:${side}`) ?? [];
    list.push(port);
    sides.set(`${id}:${side}`, list);
  };
  edges.forEach((edge, index) => {
    const route = routes[index] as Route;
    if (route.kind === "straight") return;
    const a = node(edge.from);
    const b = node(edge.to);
    const direction = Math.sign(b.y - a.y);
    if (route.kind === "loop") {
      add(a.id, "right", { key: `${index}:${a.id}:right`, direction: 0, outer: 0 });
      add(a.id, "right", { key: `${index}:${a.id}:loop`, direction: 0, outer: 1 });
      return;
    }
    const outer = route.kind === "side" ? route.lane : 1000;
    add(a.id, "right", { key: `${index}:${a.id}:right`, direction, outer });
    add(b.id, route.kind === "side" ? "right" : "left", {
      key: `${index}:${b.id}:${route.kind === "side" ? "right" : "left"}`,
      direction: -direction,
      outer,
    });
  });
  const ports = new Map<string, number>();
  for (const [key, list] of sides) {
    const n = node(key.slice(0, key.lastIndexOf(":")));
    list.sort(
      (p, q) => p.direction - q.direction || (p.direction < 0 ? p.outer - q.outer : q.outer - p.outer),
    );
    list.forEach((port, i) => {
      ports.set(port.key, n.y + (n.height * (i + 1)) / (list.length + 1));
    });
  }
  return ports;
}

/** The middle of a route's longest segment: where a badge is least likely to sit on something else. */
function badgeSpot(points: readonly Point[]): Point {
  let best = { x: points[0]?.x ?? 0, y: points[0]?.y ?? 0 };
  let length = -1;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1] as Point;
    const b = points[i] as Point;
    const l = Math.abs(a.x - b.x) + Math.abs(a.y - b.y);
    if (l > length) {
      length = l;
      best = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    }
  }
  return best;
}

/** Words into lines of at most `width` characters (a longer word gets a line of its own). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}
