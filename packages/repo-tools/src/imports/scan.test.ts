import { describe, expect, it } from "vitest";
import { type AllowedStep, type CompositionFile, checkedEdges, staleSteps } from "./allowlist.ts";
import { findFeatureCycles } from "./featureGraph.ts";
import { isRuntimeSource, scanImports } from "./scan.ts";
import type { WorkspacePackage } from "./workspace.ts";

const app: WorkspacePackage = {
  name: "@racksmith/app",
  dir: "packages/app",
  exports: ["."],
  declared: [],
};
const workspace = new Map([[app.name, app]]);

// A small package: the feature list imports every feature, features import the service contract, and
// `explorer` and `lifecycle` import each other.
const sources: Record<string, string> = {
  "packages/app/src/index.ts": 'export * from "./service/index.js";',
  "packages/app/src/service/index.ts": 'export * from "./features.js";',
  "packages/app/src/service/feature.ts": "export interface ServiceFeature {}",
  "packages/app/src/service/features.ts":
    'import { a } from "../explorer/index.js";\nimport "../lifecycle/feature.js";',
  "packages/app/src/explorer/index.ts":
    'import type { ServiceFeature } from "../service/feature.js";\nimport "../lifecycle/states.js";',
  "packages/app/src/lifecycle/feature.ts": 'import "../explorer/index.js";\nimport "../service/feature.js";',
  "packages/app/src/lifecycle/states.ts": "",
  "packages/app/src/lifecycle/feature.test.ts": 'import "../service/features.js";',
  "packages/app/test/app.test.ts": 'import "../src/index.js";\nimport "../../other/src/x.js";',
  "packages/app/vitest.config.ts": 'import "../../vitest.base.ts";',
  "README.md": "",
};
const scan = scanImports(Object.keys(sources), workspace, (file) => sources[file] ?? "");
const edges = scan.featureEdges.get(app.name) ?? [];

describe("scanImports", () => {
  it("reads code under src/ and test/ only, and applies the boundary rules", () => {
    expect(scan.files).toBe(9);
    expect(scan.boundaries.map((v) => [v.file, v.rule])).toEqual([
      ["packages/app/test/app.test.ts", "relative-escape"],
    ]);
  });

  it("builds the feature graph from runtime files (tests aside)", () => {
    expect(edges.map((e) => `${e.file}:${e.line} ${e.from}→${e.to}`)).toEqual([
      "index.ts:1 index.ts→service",
      "service/features.ts:1 service→explorer",
      "service/features.ts:2 service→lifecycle",
      "explorer/index.ts:1 explorer→service",
      "explorer/index.ts:2 explorer→lifecycle",
      "lifecycle/feature.ts:1 lifecycle→explorer",
      "lifecycle/feature.ts:2 lifecycle→service",
    ]);
  });
});

describe("composition files and allowed steps", () => {
  const composition: CompositionFile[] = [
    { package: app.name, file: "service/features.ts", reason: "the list" },
  ];
  const allowed: AllowedStep[] = [{ package: app.name, from: "explorer", to: "lifecycle", reason: "known" }];
  const loops = (kept: typeof edges) => findFeatureCycles(kept).map((cycle) => cycle.loop.join(" → "));

  it("finds the cycles through the feature list and between features when nothing is exempt", () => {
    expect(loops(checkedEdges(app.name, edges, [], []))).toEqual(["explorer → lifecycle → explorer"]);
    expect(findFeatureCycles(checkedEdges(app.name, edges, [], []))[0]?.features).toEqual([
      "explorer",
      "lifecycle",
      "service",
    ]);
  });

  it("leaves the feature list's imports out, then the allowed step", () => {
    expect(loops(checkedEdges(app.name, edges, composition, []))).toEqual([
      "explorer → lifecycle → explorer",
    ]);
    expect(loops(checkedEdges(app.name, edges, composition, allowed))).toEqual([]);
    expect(loops(checkedEdges("@racksmith/other", edges, composition, allowed))).toHaveLength(1);
  });

  it("reports an allowed step that no longer closes a cycle, or no longer exists", () => {
    const graph = new Map([[app.name, edges]]);
    const gone: AllowedStep = { package: app.name, from: "lifecycle", to: "inventory", reason: "fixed" };
    const open: AllowedStep = { package: app.name, from: "service", to: "explorer", reason: "no way back" };
    expect(staleSteps(graph, composition, [...allowed, gone, open])).toEqual([gone, open]);
  });
});

describe("isRuntimeSource", () => {
  it.each([
    ["lifecycle/feature.ts", true],
    ["lifecycle/feature.test.ts", false],
    ["explorer/__fixtures__/reports.ts", false],
    ["agents/__support__/simulation.ts", false],
  ])("%s → %s", (path, expected) => {
    expect(isRuntimeSource(path)).toBe(expected);
  });
});
