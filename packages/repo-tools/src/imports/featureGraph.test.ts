import { describe, expect, it } from "vitest";
import {
  bypassesIndex,
  type FeatureEdge,
  featureOf,
  findFeatureCycles,
  resolveRelative,
} from "./featureGraph.ts";

const edge = (from: string, to: string, file = `${from}/a.ts`, target = `${to}/index.ts`): FeatureEdge => ({
  from,
  to,
  file,
  line: 1,
  target,
  typeOnly: false,
});

describe("featureOf", () => {
  it.each([
    ["index.ts", "index.ts"],
    ["version.ts", "version.ts"],
    ["lifecycle/feature.ts", "lifecycle"],
    ["lifecycle/agents/grpcService.ts", "lifecycle"],
    ["fabric/infiniband/feature.ts", "fabric/infiniband"],
    ["fabric/infiniband/tenant/monitor/monitor.ts", "fabric/infiniband"],
    ["fabric/common/index.ts", "fabric/common"],
    ["health/aggregate.ts", "health"],
    ["health/monitor/monitor.ts", "health/monitor"],
    ["health/service/index.ts", "health/service"],
  ])("%s → %s", (path, feature) => {
    expect(featureOf(path)).toBe(feature);
  });
});

describe("resolveRelative", () => {
  const files = new Set(["p/src/a/x.ts", "p/src/b/index.ts", "p/src/c.mts", "p/src/d.js"]);
  it.each([
    ["./x.js", "p/src/a/x.ts"],
    ["../b/index.js", "p/src/b/index.ts"],
    ["../b", "p/src/b/index.ts"],
    ["../c.mjs", "p/src/c.mts"],
    ["../d.js", "p/src/d.js"],
    ["./x.ts", "p/src/a/x.ts"],
    ["../missing.js", "p/src/missing.js"],
  ])("%s from p/src/a/y.ts → %s", (specifier, target) => {
    expect(resolveRelative("p/src/a/y.ts", specifier, files)).toBe(target);
  });
});

describe("findFeatureCycles", () => {
  it.each<[string, FeatureEdge[], string[][]]>([
    ["a chain", [edge("a", "b"), edge("b", "c")], []],
    ["a pair", [edge("a", "b"), edge("b", "a")], [["a", "b", "a"]]],
    ["a triangle", [edge("b", "c"), edge("c", "a"), edge("a", "b")], [["a", "b", "c", "a"]]],
    [
      "two separate cycles",
      [edge("a", "b"), edge("b", "a"), edge("x", "y"), edge("y", "x"), edge("a", "x")],
      [
        ["a", "b", "a"],
        ["x", "y", "x"],
      ],
    ],
    ["a self-import", [edge("a", "a")], []],
    [
      "the shortest loop of a larger group",
      [edge("a", "b"), edge("b", "c"), edge("c", "d"), edge("d", "a"), edge("b", "a")],
      [["a", "b", "a"]],
    ],
  ])("%s", (_, edges, loops) => {
    expect(findFeatureCycles(edges).map((cycle) => cycle.loop)).toEqual(loops);
  });

  it("names every feature of the group and the imports on the loop", () => {
    const edges = [
      edge("lifecycle", "explorer", "lifecycle/x.ts"),
      edge("lifecycle", "explorer", "lifecycle/y.ts"),
      edge("explorer", "lifecycle", "explorer/z.ts", "lifecycle/states.ts"),
      edge("explorer", "inventory"),
      edge("inventory", "lifecycle"),
    ];
    const [cycle] = findFeatureCycles(edges);
    expect(cycle?.features).toEqual(["explorer", "inventory", "lifecycle"]);
    expect(cycle?.loop).toEqual(["explorer", "lifecycle", "explorer"]);
    expect(cycle?.edges.map((e) => e.file)).toEqual(["explorer/z.ts", "lifecycle/x.ts", "lifecycle/y.ts"]);
  });
});

describe("bypassesIndex", () => {
  it.each([
    [edge("lifecycle", "explorer", "lifecycle/a.ts", "explorer/index.ts"), false],
    [edge("lifecycle", "explorer", "lifecycle/a.ts", "explorer/machineStore.ts"), true],
    [edge("health/service", "health", "health/service/a.ts", "health/index.ts"), false],
    [edge("health/service", "health", "health/service/a.ts", "health/overrides.ts"), true],
    [edge("index.ts", "lifecycle", "index.ts", "lifecycle/feature.ts"), false],
    [edge("state", "version.ts", "state/a.ts", "version.ts"), false],
    [edge("health", "api", "health/proto.ts", "api/grpc/generated/racksmith/v1/HealthReport.ts"), false],
  ])("%j → %s", (e, expected) => {
    expect(bypassesIndex(e)).toBe(expected);
  });
});
