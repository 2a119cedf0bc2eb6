import type { HostTest, HostTestTarget } from "@racksmith/core";
import { describe, expect, it } from "vitest";
import { selectTests } from "./selectTests.js";

const test = (id: string, change: Partial<HostTest> = {}): HostTest => ({
  id,
  name: id,
  command: "true",
  args: [],
  timeoutMs: 1_000,
  version: "v1",
  enabled: true,
  verified: true,
  platforms: [],
  skus: [],
  contexts: ["discovery", "cleanup", "onDemand"],
  description: "",
  ...change,
});

const catalogue = [
  test("all"),
  test("unverified", { verified: false }),
  test("disabled", { enabled: false }),
  test("cleanup-only", { contexts: ["cleanup"] }),
  test("r750", { platforms: ["R750"] }),
  test("sku-a", { skus: ["a"] }),
];
const host: HostTestTarget = { context: "discovery", platform: "R750", skuId: null };

describe("selectTests", () => {
  it.each<[string, HostTestTarget, string[], Array<[string, RegExp]>]>([
    ["discovery on an R750 without a SKU", host, ["all", "r750"], []],
    [
      "cleanup on another model with SKU a",
      { context: "cleanup", platform: "X", skuId: "a" },
      ["all", "cleanup-only", "sku-a"],
      [],
    ],
    [
      "on demand, naming none: the context's verified tests",
      { ...host, context: "onDemand" },
      ["all", "r750"],
      [],
    ],
    [
      "on demand, naming tests: those, unverified ones too, the rest unschedulable with why",
      {
        ...host,
        context: "onDemand",
        only: ["unverified", "disabled", "nope", "sku-a", "cleanup-only", "unverified"],
      },
      ["unverified", "cleanup-only"],
      [
        ["disabled", /disabled/],
        ["nope", /no test has this id/],
        ["sku-a", /runs on SKUs a, not a host without a SKU/],
      ],
    ],
    [
      "on demand on an unknown platform",
      { ...host, platform: "", context: "onDemand", only: ["r750"] },
      [],
      [["r750", /runs on R750, not an unknown platform/]],
    ],
  ])("%s", (_name, target, ids, unschedulable) => {
    const selection = selectTests(catalogue, target);
    expect(selection.tests.map((t) => t.id)).toEqual(ids);
    expect(selection.unschedulable).toEqual(
      unschedulable.map(([testId, reason]) => ({ testId, reason: expect.stringMatching(reason) })),
    );
  });
});
