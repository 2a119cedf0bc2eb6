import type { StateGraph } from "@racksmith/server";
import { type EdgeFamily, groupsOf, shortLabel, splitEdgeFamilies } from "./families.js";

/** Words the state-diagram grammar gives a meaning to; an id spelled like one gets a suffix. */
const RESERVED = new Set(
  [
    "state",
    "note",
    "end",
    "direction",
    "class",
    "classdef",
    "style",
    "as",
    "left",
    "right",
    "of",
    "click",
  ].map((word) => word.toLowerCase()),
);

/** Hands out Mermaid identifiers: letters, digits and `_`, never reserved, never twice. */
function idAllocator(): (name: string) => string {
  const taken = new Set<string>();
  return (name) => {
    let base = name.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "");
    if (!/^[A-Za-z]/.test(base)) base = `s_${base}`;
    if (RESERVED.has(base.toLowerCase())) base = `${base}_state`;
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
    taken.add(id);
    return id;
  };
}

/**
 * Text in a description, note or transition label. The grammar ends a description at `;` or `#`, and a
 * quoted name at `"`, so those become Mermaid's entity codes (decoded when drawn).
 */
export function mermaidText(text: string): string {
  // One pass, so the `;` of an entity just written is not escaped again.
  const codes: Record<string, string> = { "#": "#35;", ";": "#59;", '"': "#quot;" };
  return text.replace(/[\r\n]+/g, " ").replace(/[#;"]/g, (c) => codes[c] ?? c);
}

/**
 * The graph as a Mermaid `stateDiagram-v2`: one composite state per group holding its labels (a group that is
 * just one label of its own name is a plain state), every transition labelled with its `when`.
 *
 * Transitions are declared after every composite block: Mermaid puts a state in the last block that
 * mentions it, so declaring them inside would move states between groups.
 */
export function renderMermaid(graph: StateGraph): string {
  const allocate = idAllocator();
  const { families, edges } = splitEdgeFamilies(graph);
  const nodeIds = new Map<string, string>();
  const groupIds = new Map<string, string>();
  const lines = ["stateDiagram-v2"];
  if (families.length > 0) {
    lines.push(
      `  %% Compact: ${families.map((f) => `→ ${f.target}`).join(" and ")} drawn once per group or as a note, not from every state.`,
    );
  }

  for (const { group, nodes } of groupsOf(graph)) {
    if (nodes.length === 1 && nodes[0] === group) {
      const id = allocate(group);
      nodeIds.set(group, id);
      groupIds.set(group, id);
      lines.push(id === group ? `  state ${id}` : `  state "${mermaidText(group)}" as ${id}`);
      continue;
    }
    const groupId = allocate(group);
    groupIds.set(group, groupId);
    if (groupId !== group) lines.push(`  ${groupId} : ${mermaidText(group)}`);
    lines.push(`  state ${groupId} {`);
    for (const node of nodes) {
      const id = allocate(node);
      nodeIds.set(node, id);
      lines.push(`    state "${mermaidText(shortLabel(node, group))}" as ${id}`);
    }
    lines.push("  }");
  }

  const idOf = (node: string): string => nodeIds.get(node) ?? allocate(node);
  lines.push(`  [*] --> ${idOf(graph.initial)}`);
  for (const edge of edges) {
    lines.push(`  ${idOf(edge.from)} --> ${idOf(edge.to)} : ${mermaidText(edge.when)}`);
  }
  lines.push(...families.flatMap((family) => familyLines(family, graph, idOf, groupIds)));
  for (const final of graph.final) lines.push(`  ${idOf(final)} --> [*]`);
  return `${lines.join("\n")}\n`;
}

/**
 * A family drawn compactly (an edge from every node would swamp the diagram): a note when every state can
 * take it, else one transition per source group, from its composite state.
 */
function familyLines(
  family: EdgeFamily,
  graph: StateGraph,
  idOf: (node: string) => string,
  groupIds: ReadonlyMap<string, string>,
): string[] {
  const target = idOf(family.target);
  if (family.fromEverywhere) {
    return [`  note left of ${target} : from every state, ${mermaidText(family.when)}`];
  }
  const lines: string[] = [];
  for (const { group, nodes } of groupsOf(graph)) {
    const sources = nodes.filter((node) => family.sources.includes(node));
    if (sources.length === 0) continue;
    const from = groupIds.get(group) ?? idOf(sources[0] as string);
    // One transition leaves the group; when only some of its states can take it, the label names them.
    const which = sources.length === nodes.length ? "" : ` (from ${listOf(sources, group)})`;
    lines.push(`  ${from} --> ${target} : ${mermaidText(`${family.when}${which}`)}`);
  }
  return lines;
}

function listOf(sources: readonly string[], group: string): string {
  return sources.map((source) => shortLabel(source, group)).join(", ");
}
