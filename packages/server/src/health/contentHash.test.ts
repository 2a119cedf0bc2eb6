import type { HealthReport } from "@racksmith/core/health";
import { describe, expect, it } from "vitest";
import { healthContentHash } from "./contentHash.js";
import { appendHealthHistory, type HealthHistoryEntry } from "./history.js";

const base: HealthReport = {
  source: "forge-dpu-agent",
  observedAt: "2024-06-01T12:00:00.000Z",
  successes: [{ id: "Disk" }, { id: "Bgp", target: "tor1" }],
  alerts: [
    {
      id: "Bgp",
      target: "tor2",
      inAlertSince: "2024-06-01T11:00:00.000Z",
      message: "down",
      classifications: ["B", "A"],
    },
    { id: "Svc", message: "stopped", classifications: [] },
  ],
};

describe("healthContentHash", () => {
  it.each<{ name: string; change: (r: HealthReport) => HealthReport }>([
    { name: "observedAt", change: (r) => ({ ...r, observedAt: "2030-01-01T00:00:00.000Z" }) },
    { name: "a missing observedAt", change: ({ observedAt: _, ...r }) => r },
    {
      name: "inAlertSince",
      change: (r) => ({
        ...r,
        alerts: r.alerts.map((a) => ({ ...a, inAlertSince: "2030-01-01T00:00:00.000Z" })),
      }),
    },
    {
      name: "entry order",
      change: (r) => ({ ...r, successes: [...r.successes].reverse(), alerts: [...r.alerts].reverse() }),
    },
    {
      name: "classification order",
      change: (r) => ({
        ...r,
        alerts: r.alerts.map((a) => ({ ...a, classifications: [...a.classifications].reverse() })),
      }),
    },
  ])("ignores $name", ({ change }) => {
    expect(healthContentHash(change(base))).toBe(healthContentHash(base));
  });

  it.each<{ name: string; change: (r: HealthReport) => HealthReport }>([
    { name: "source", change: (r) => ({ ...r, source: "other" }) },
    { name: "a message", change: (r) => ({ ...r, alerts: r.alerts.map((a) => ({ ...a, message: "x" })) }) },
    {
      name: "a target",
      change: (r) => ({
        ...r,
        successes: [
          { id: "Disk", target: "nvme0" },
          { id: "Bgp", target: "tor1" },
        ],
      }),
    },
    {
      name: "a classification",
      change: (r) => ({ ...r, alerts: r.alerts.map((a) => ({ ...a, classifications: ["C"] })) }),
    },
    {
      name: "a tenant message",
      change: (r) => ({ ...r, alerts: r.alerts.map((a) => ({ ...a, tenantMessage: "t" })) }),
    },
    {
      name: "an alert turning into a success",
      change: (r) => ({
        ...r,
        alerts: r.alerts.slice(1),
        successes: [...r.successes, { id: "Bgp", target: "tor2" }],
      }),
    },
  ])("changes with $name", ({ change }) => {
    expect(healthContentHash(change(base))).not.toBe(healthContentHash(base));
  });
});

describe("appendHealthHistory", () => {
  const at = (minute: number) => new Date(Date.UTC(2024, 5, 1, 12, minute));
  const healthy: HealthReport = { source: "aggregate-host-health", successes: [], alerts: [] };

  it("skips a report that says the same as the latest entry", () => {
    const one = appendHealthHistory([], base, at(0));
    expect(appendHealthHistory(one, { ...base, observedAt: at(1).toISOString() }, at(1))).toBe(one);
    const two = appendHealthHistory(one, healthy, at(2));
    expect(two.map((e) => e.at)).toEqual([at(0).toISOString(), at(2).toISOString()]);
    // Back to the first content: a new row, since only the latest entry is compared.
    expect(appendHealthHistory(two, base, at(3))).toHaveLength(3);
  });

  it("keeps only the newest entries beyond the limit", () => {
    let history: readonly HealthHistoryEntry[] = [];
    for (let minute = 0; minute < 5; minute++) {
      history = appendHealthHistory(history, { ...healthy, source: `s${minute}` }, at(minute), 3);
    }
    expect(history.map((e) => e.report.source)).toEqual(["s2", "s3", "s4"]);
  });
});
