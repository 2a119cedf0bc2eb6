import type { StateGraph } from "@racksmith/server";
import {
  type DiagramLayout,
  layoutGraph,
  type PlacedNode,
  type Point,
  type RoutedEdge,
  TEXT,
} from "./layout.js";

const FONT = "DejaVu Sans Mono, Menlo, Consolas, monospace";
const COLOR = {
  ink: "#1f2933",
  edge: "#3e4c59",
  back: "#9aa5b1",
  groupFill: "#f0f4f8",
  groupStroke: "#bcccdc",
  node: "#ffffff",
  halo: "#ffffff",
} as const;
/** One colour per edge family: its marks, its note and its target's outline. */
const FAMILY_COLORS = ["#c62828", "#6a1b9a", "#ef6c00", "#00695c"];

/** Text for XML content and attribute values. */
export function xmlText(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

const n = (value: number) => String(Math.round(value * 10) / 10);
const familyColor = (index: number) => FAMILY_COLORS[index % FAMILY_COLORS.length] as string;

/**
 * The graph as a self-contained SVG (no scripts, fonts or external references): groups as rounded boxes,
 * states as boxes, transitions as arrows. Edges between stacked states carry their `when` inline; the others
 * carry a number explained in the legend, and every edge has a tooltip. Edge families are drawn compactly
 * (see `layoutGraph`).
 */
export function renderSvg(graph: StateGraph): string {
  const layout = layoutGraph(graph);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${n(layout.width)}" height="${n(layout.height)}" viewBox="0 0 ${n(layout.width)} ${n(layout.height)}" font-family="${FONT}">`,
    `<title>${xmlText(`State graph: ${graph.nodes.length} states from ${graph.initial}`)}</title>`,
    defs(),
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
  ];
  for (const group of layout.groups) {
    out.push(
      `<g class="group"><rect x="${n(group.x)}" y="${n(group.y)}" width="${n(group.width)}" height="${n(group.height)}" rx="10" fill="${COLOR.groupFill}" stroke="${COLOR.groupStroke}"/>`,
      `<text x="${n(group.x + 12)}" y="${n(group.y + 17)}" font-size="${TEXT.group}" font-weight="bold" fill="${COLOR.ink}">${xmlText(group.name)}</text></g>`,
    );
  }
  out.push(...layout.edges.map(edgeSvg));
  out.push(...layout.nodes.map((node) => nodeSvg(node, layout)));
  out.push(...layout.edges.flatMap(edgeLabelSvg));
  layout.families.forEach((family, index) => {
    const mark = family.fromEverywhere ? "" : "✕ ";
    out.push(
      `<text x="${n(family.note.x)}" y="${n(family.note.y)}" font-size="${TEXT.label + 1}" fill="${familyColor(index)}">${xmlText(`${mark}${family.text}`)}</text>`,
    );
  });
  for (const entry of layout.legend) {
    out.push(
      `<text x="${n(entry.x)}" y="${n(entry.y)}" font-size="${TEXT.label}" fill="${COLOR.ink}">${xmlText(entry.text)}</text>`,
    );
  }
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}

function defs(): string {
  const marker = (id: string, color: string) =>
    `<marker id="${id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${color}"/></marker>`;
  return `<defs>${marker("arrow", COLOR.edge)}${marker("arrow-back", COLOR.back)}</defs>`;
}

function edgeSvg(edge: RoutedEdge): string {
  const color = edge.style === "back" ? COLOR.back : COLOR.edge;
  const dash = edge.style === "back" ? ` stroke-dasharray="5 3"` : "";
  const marker = edge.style === "back" ? "arrow-back" : "arrow";
  const d = edge.points.map((p, i) => `${i === 0 ? "M" : "L"}${n(p.x)},${n(p.y)}`).join(" ");
  return `<g class="edge"><title>${xmlText(`${edge.from} → ${edge.to}: ${edge.when}`)}</title><path d="${d}" fill="none" stroke="${color}" stroke-width="1.3"${dash} marker-end="url(#${marker})"/></g>`;
}

/** Labels go on top of every line, on a white ground so the arrow they sit on does not run through them. */
function edgeLabelSvg(edge: RoutedEdge): string[] {
  const out: string[] = [];
  if (edge.label) {
    const { x, y, lines } = edge.label;
    const lineHeight = TEXT.label + 2;
    const width = Math.max(...lines.map((line) => line.length)) * TEXT.label * TEXT.advance + 6;
    const height = lines.length * lineHeight + 2;
    out.push(
      `<rect x="${n(x - width / 2)}" y="${n(y - height / 2)}" width="${n(width)}" height="${n(height)}" fill="${COLOR.halo}"/>`,
    );
    const first = y - ((lines.length - 1) * lineHeight) / 2 + TEXT.label / 3;
    lines.forEach((line, i) => {
      out.push(
        `<text x="${n(x)}" y="${n(first + i * lineHeight)}" font-size="${TEXT.label}" text-anchor="middle" fill="${COLOR.edge}">${xmlText(line)}</text>`,
      );
    });
  }
  if (edge.badge) out.push(badgeSvg(edge.badge, edge.style === "back" ? COLOR.back : COLOR.edge));
  return out;
}

function badgeSvg(at: Point & { number: number }, color: string): string {
  return `<g class="badge"><circle cx="${n(at.x)}" cy="${n(at.y)}" r="8" fill="#ffffff" stroke="${color}"/><text x="${n(at.x)}" y="${n(at.y + 3.5)}" font-size="9" text-anchor="middle" fill="${COLOR.ink}">${at.number}</text></g>`;
}

function nodeSvg(node: PlacedNode, layout: DiagramLayout): string {
  const family = layout.families.findIndex((f) => f.target === node.id);
  const stroke = family >= 0 ? familyColor(family) : COLOR.ink;
  const parts = [
    `<g class="state"><title>${xmlText(node.id)}</title>`,
    `<rect x="${n(node.x)}" y="${n(node.y)}" width="${n(node.width)}" height="${n(node.height)}" rx="5" fill="${COLOR.node}" stroke="${stroke}" stroke-width="1.3"/>`,
  ];
  // UML's marks: a double outline for a final state, a filled dot pointing at the initial one.
  if (node.final) {
    parts.push(
      `<rect x="${n(node.x + 3)}" y="${n(node.y + 3)}" width="${n(node.width - 6)}" height="${n(node.height - 6)}" rx="3" fill="none" stroke="${stroke}"/>`,
    );
  }
  if (node.initial) {
    const y = node.y + node.height / 2;
    parts.push(
      `<circle cx="${n(node.x - 30)}" cy="${n(y)}" r="6" fill="${COLOR.ink}"/>`,
      `<path d="M${n(node.x - 24)},${n(y)} L${n(node.x)},${n(y)}" stroke="${COLOR.ink}" stroke-width="1.3" marker-end="url(#arrow)"/>`,
    );
  }
  parts.push(
    `<text x="${n(node.x + node.width / 2)}" y="${n(node.y + node.height / 2 + TEXT.node / 3)}" font-size="${TEXT.node}" text-anchor="middle" fill="${COLOR.ink}">${xmlText(node.label)}</text>`,
  );
  node.marks.forEach((index, i) => {
    const cx = node.x + node.width - 6 - i * 14;
    parts.push(
      `<text x="${n(cx)}" y="${n(node.y - 3)}" font-size="11" text-anchor="middle" font-weight="bold" fill="${familyColor(index)}">✕</text>`,
    );
  });
  parts.push("</g>");
  return parts.join("");
}
