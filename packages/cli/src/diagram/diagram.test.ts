import { MANAGED_HOST_GRAPH, type StateGraph } from "@racksmith/server";
import { XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { splitEdgeFamilies } from "./families.js";
import { renderMermaid, renderSvg } from "./index.js";
import { backEdges, longestPathLayers } from "./layering.js";
import { mermaidText } from "./mermaid.js";

/** A small lifecycle: a chain with a retry, a loop back to the start, and two families from everywhere. */
const TINY: StateGraph = {
  nodes: [
    { id: "new", group: "new" },
    { id: "setup/a", group: "setup" },
    { id: "setup/b", group: "setup" },
    { id: "run/x", group: "run" },
    { id: "end", group: "end" },
    { id: "broken", group: "broken" },
    { id: "gone", group: "gone" },
  ],
  edges: [
    { from: "new", to: "setup/a", when: "found" },
    { from: "setup/a", to: "setup/b", when: "a done; next" },
    { from: "setup/b", to: "setup/a", when: "b failed (retry)" },
    { from: "setup/b", to: "setup/b", when: "again" },
    { from: "setup/b", to: "run/x", when: 'ready <now> & "go"' },
    { from: "run/x", to: "end", when: "finished" },
    { from: "end", to: "new", when: "recycled" },
    ...["setup/a", "setup/b", "run/x", "end"].map((from) => ({ from, to: "broken", when: "gave up" })),
    ...["new", "setup/a", "setup/b", "run/x", "end", "broken"].map((from) => ({
      from,
      to: "gone",
      when: "deleted",
    })),
  ],
  initial: "new",
  final: ["gone"],
};

const wellFormed = (svg: string) => XMLValidator.validate(svg) === true;

describe("edge families", () => {
  it("finds the targets reached from many groups with one reason, and only those", () => {
    const { families, edges } = splitEdgeFamilies(TINY);
    expect(families.map((f) => [f.target, f.fromEverywhere, f.sources.length])).toEqual([
      ["broken", false, 4],
      ["gone", true, 6],
    ]);
    expect(edges.every((edge) => edge.to !== "broken" && edge.to !== "gone")).toBe(true);
    const managed = splitEdgeFamilies(MANAGED_HOST_GRAPH).families;
    expect(managed.map((f) => [f.target, f.fromEverywhere])).toEqual([
      ["failed", false],
      ["forceDeletion", true],
    ]);
  });
});

describe("layering", () => {
  it.each([
    {
      name: "chain",
      edges: [
        ["a", "b"],
        ["b", "c"],
      ],
      back: [],
      layers: { a: 0, b: 1, c: 2 },
    },
    {
      name: "cycle back to the start",
      edges: [
        ["a", "b"],
        ["b", "c"],
        ["c", "a"],
      ],
      back: [2],
      layers: { a: 0, b: 1, c: 2 },
    },
    {
      name: "shortcut",
      edges: [
        ["a", "c"],
        ["a", "b"],
        ["b", "c"],
      ],
      back: [],
      layers: { a: 0, b: 1, c: 2 },
    },
    {
      name: "self loop",
      edges: [
        ["a", "a"],
        ["a", "b"],
      ],
      back: [0],
      layers: { a: 0, b: 1 },
    },
  ])("$name", ({ edges, back, layers }) => {
    const graph = {
      nodes: Object.keys(layers),
      edges: edges.map(([from, to]) => ({ from: from as string, to: to as string })),
    };
    const found = backEdges(graph, "a");
    expect([...found]).toEqual(back);
    expect(Object.fromEntries(longestPathLayers(graph, found))).toEqual(layers);
  });
});

describe("renderMermaid", () => {
  const tiny = renderMermaid(TINY);

  it.each([
    ["header", /^stateDiagram-v2\n/],
    [
      "a composite per group of steps",
      /state setup \{\n {4}state "a" as setup_a\n {4}state "b" as setup_b\n {2}\}/,
    ],
    ["a one-label group as a plain state", /\n {2}state new\n/],
    ["the initial state", /\[\*\] --> new\n/],
    ["the final state", /gone --> \[\*\]\n$/],
    ["labelled edges, `;` escaped", /setup_a --> setup_b : a done#59; next\n/],
    ["retries and loops", /setup_b --> setup_a : b failed \(retry\)\n {2}setup_b --> setup_b : again\n/],
    ["quotes escaped", /setup_b --> run_x : ready <now> & #quot;go#quot;\n/],
    [
      "a family as one edge per group",
      /\n {2}setup --> broken : gave up\n {2}run --> broken : gave up\n {2}end_state --> broken : gave up\n/,
    ],
    ["a family from everywhere as a note", /note left of gone : from every state, deleted\n/],
    ["a comment on the compaction", /%% Compact: → broken and → gone/],
  ])("%s", (_name, pattern) => {
    expect(tiny).toMatch(pattern);
  });

  it("draws no edge of a family one by one", () => {
    expect(tiny).not.toMatch(/--> gone/);
    expect(tiny).not.toMatch(/setup_a --> broken/);
  });

  it("keeps ids valid and distinct when labels are not identifiers or clash with keywords", () => {
    const odd: StateGraph = {
      nodes: [
        { id: "state", group: "state" },
        { id: "a-b/c d", group: "a-b" },
        { id: "a_b/c_d", group: "a-b" },
        { id: "9lives", group: "9lives" },
      ],
      edges: [
        { from: "state", to: "a-b/c d", when: "x # y" },
        { from: "a-b/c d", to: "a_b/c_d", when: "z" },
      ],
      initial: "state",
      final: ["9lives"],
    };
    const text = renderMermaid(odd);
    expect(text).toContain("state_state --> a_b_c_d : x #35; y");
    expect(text).toContain('state "a_b/c_d" as a_b_c_d_2');
    expect(text).toContain('state "9lives" as s_9lives');
    expect(text).toContain("a_b : a-b");
    for (const line of text.split("\n").filter((l) => l.includes("-->"))) {
      expect(line).toMatch(/^ {2}(\[\*\]|[A-Za-z]\w*) --> (\[\*\]|[A-Za-z]\w*)( : ([^;#\n]|#\w+;)+)?$/);
    }
  });

  it("escapes what would end a description", () => {
    expect(mermaidText('a;b#c"d\ne')).toBe("a#59;b#35;c#quot;d e");
  });

  it("shows every state of the managed-host lifecycle and every group once", () => {
    const text = renderMermaid(MANAGED_HOST_GRAPH);
    for (const node of MANAGED_HOST_GRAPH.nodes) {
      const step = node.id.includes("/") ? node.id.slice(node.id.indexOf("/") + 1) : node.id;
      expect(text).toMatch(new RegExp(`state ("${step}" as )?${node.id.replace("/", "_")}\\b`));
    }
    expect(text.match(/state hostInit \{/g)).toHaveLength(1);
    expect(text).toContain("[*] --> created");
    expect(text).toContain("forceDeletion --> [*]");
    expect(text).toContain("note left of forceDeletion : from every state, force delete requested");
    expect(text).toMatch(
      /hostInit --> failed : retries or reboots exhausted, or a failure reported \(from machineSetup/,
    );
    expect(text.split("\n").filter((line) => line.includes("--> forceDeletion"))).toEqual([]);
  });
});

describe("renderSvg", () => {
  it.each([
    ["tiny", TINY],
    ["managed host", MANAGED_HOST_GRAPH],
  ])("%s: well-formed XML, self-contained, every state drawn", (_name, graph) => {
    const svg = renderSvg(graph);
    expect(wellFormed(svg)).toBe(true);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+"/);
    expect(svg).not.toMatch(/<script|xlink:href|href="http|@import/);
    for (const node of graph.nodes) expect(svg).toContain(`<title>${node.id}</title>`);
  });

  it("escapes text and draws every edge with an arrowhead and a tooltip", () => {
    const svg = renderSvg(TINY);
    expect(svg).toContain("ready &lt;now&gt; &amp; &quot;go&quot;");
    const drawn = TINY.edges.filter((edge) => edge.to !== "broken" && edge.to !== "gone");
    expect(svg.match(/<g class="edge">/g)).toHaveLength(drawn.length);
    expect(svg.match(/marker-end="url\(#arrow(-back)?\)"/g)?.length).toBeGreaterThanOrEqual(drawn.length);
    expect(svg).toContain("every state → gone: deleted");
    expect(svg).toContain("states marked → broken: gave up (4 states)");
  });

  it("draws groups as boxes and stacks a group's steps top-down in flow order", () => {
    const svg = renderSvg(MANAGED_HOST_GRAPH);
    const groups = new Set(MANAGED_HOST_GRAPH.nodes.map((node) => node.group));
    expect(svg.match(/<g class="group">/g)).toHaveLength(groups.size - 2);
    const y = (label: string) =>
      Number(new RegExp(`<title>${label}</title><rect x="[\\d.]+" y="([\\d.]+)"`).exec(svg)?.[1]);
    expect(y("hostInit/disableLockdown")).toBeLessThan(y("hostInit/machineSetup"));
    expect(y("hostInit/machineSetup")).toBeLessThan(y("hostInit/pollingLockdownStatus"));
    expect(y("failed")).toBeGreaterThan(y("hostInit/pollingLockdownStatus"));
  });
});
