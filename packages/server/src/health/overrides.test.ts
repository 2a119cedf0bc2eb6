import type { HealthReport } from "@racksmith/core/health";
import { describe, expect, it } from "vitest";
import {
  addOverride,
  emptyHealthOverrides,
  type HealthOverrides,
  listOverrides,
  removeOverride,
} from "./overrides.js";
import { isOverrideTemplateName, OVERRIDE_TEMPLATE_NAMES, overrideTemplate } from "./overrideTemplates.js";

const NOW = new Date("2024-06-01T12:00:00.000Z");
const at = NOW.toISOString();
const report = (source: string, fields: Partial<HealthReport> = {}): HealthReport => ({
  source,
  successes: [],
  alerts: [],
  ...fields,
});

describe("addOverride / removeOverride", () => {
  it("stamps observedAt, inAlertSince and triggeredBy", () => {
    const input = report("sre", { alerts: [{ id: "Flaky", message: "m", classifications: [] }] });
    const overrides = addOverride(emptyHealthOverrides(), input, "merge", { now: NOW, triggeredBy: "alice" });
    expect(overrides).toEqual({
      merges: {
        sre: {
          source: "sre",
          triggeredBy: "alice",
          observedAt: at,
          successes: [],
          alerts: [{ id: "Flaky", message: "m", classifications: [], inAlertSince: at }],
        },
      },
    });
  });

  it("keeps timestamps the report already has", () => {
    const given = "2024-01-01T00:00:00.000Z";
    const input = report("sre", {
      observedAt: given,
      alerts: [{ id: "X", message: "m", classifications: [], inAlertSince: given }],
    });
    const stored = addOverride(emptyHealthOverrides(), input, "replace", { now: NOW }).replace;
    expect(stored?.observedAt).toBe(given);
    expect(stored?.alerts[0]?.inAlertSince).toBe(given);
  });

  it.each<{
    name: string;
    start: HealthOverrides;
    add: [string, "merge" | "replace"];
    merges: string[];
    replace?: string;
  }>([
    {
      name: "several merges side by side",
      start: { merges: { a: report("a") } },
      add: ["b", "merge"],
      merges: ["a", "b"],
    },
    {
      name: "a merge of the replacing source takes its place",
      start: { merges: {}, replace: report("a") },
      add: ["a", "merge"],
      merges: ["a"],
    },
    {
      name: "a replace removes the same source's merge",
      start: { merges: { a: report("a"), b: report("b") } },
      add: ["a", "replace"],
      merges: ["b"],
      replace: "a",
    },
    {
      name: "a second replace takes the place of the first",
      start: { merges: {}, replace: report("a") },
      add: ["b", "replace"],
      merges: [],
      replace: "b",
    },
  ])("$name", ({ start, add, merges, replace }) => {
    const next = addOverride(start, report(add[0]), add[1], { now: NOW });
    expect(Object.keys(next.merges).sort()).toEqual(merges);
    expect(next.replace?.source).toBe(replace);
  });

  it.each<{ name: string; start: HealthOverrides; source: string; expected: HealthOverrides }>([
    {
      name: "removes a merge",
      start: { merges: { a: report("a"), b: report("b") } },
      source: "a",
      expected: { merges: { b: report("b") } },
    },
    {
      name: "removes the replace",
      start: { merges: {}, replace: report("a") },
      source: "a",
      expected: { merges: {} },
    },
    {
      name: "leaves others alone",
      start: { merges: { a: report("a") }, replace: report("b") },
      source: "c",
      expected: { merges: { a: report("a") }, replace: report("b") },
    },
  ])("removeOverride $name", ({ start, source, expected }) => {
    const before = structuredClone(start);
    expect(removeOverride(start, source)).toEqual(expected);
    expect(start).toEqual(before);
  });

  it("lists merges by source, then the replace", () => {
    const overrides = { merges: { b: report("b"), a: report("a") }, replace: report("r") };
    expect(listOverrides(overrides).map((o) => [o.mode, o.report.source])).toEqual([
      ["merge", "a"],
      ["merge", "b"],
      ["replace", "r"],
    ]);
  });
});

describe("overrideTemplate", () => {
  it.each([
    ["maintenance", "Maintenance", ["PreventAllocations", "SuppressExternalAlerting"]],
    [
      "out-for-repair",
      "OutForRepair",
      ["PreventAllocations", "StopRebootForAutomaticRecoveryFromStateMachine", "SuppressExternalAlerting"],
    ],
    ["mark-healthy", undefined, undefined],
    ["degraded", "Degraded", []],
  ] as const)("%s raises %s with %j", (name, id, classifications) => {
    const template = overrideTemplate(name, NOW);
    expect(template.source).toBe(name);
    expect(template.observedAt).toBe(at);
    if (id === undefined) {
      expect(template.alerts).toEqual([]);
      return;
    }
    expect(template.alerts).toHaveLength(1);
    expect(template.alerts[0]).toMatchObject({ id, inAlertSince: at, classifications: [...classifications] });
  });

  it("takes an operator message and only degraded speaks to tenants", () => {
    expect(overrideTemplate("maintenance", NOW, { message: "RMA-123" }).alerts[0]?.message).toBe("RMA-123");
    const tenantFacing = OVERRIDE_TEMPLATE_NAMES.filter((name) =>
      overrideTemplate(name, NOW).alerts.some((a) => a.tenantMessage !== undefined),
    );
    expect(tenantFacing).toEqual(["degraded"]);
    expect(isOverrideTemplateName("maintenance")).toBe(true);
    expect(isOverrideTemplateName("vacation")).toBe(false);
  });
});
