import { describe, expect, it } from "vitest";
import { mergeHealthReports } from "./merge.js";
import type { HealthProbeAlert, HealthReport } from "./report.js";

const report = (source: string, fields: Partial<HealthReport> = {}): HealthReport => ({
  source,
  successes: [],
  alerts: [],
  ...fields,
});
const alert = (id: string, fields: Partial<HealthProbeAlert> = {}): HealthProbeAlert => ({
  id,
  message: `${id} failed`,
  classifications: [],
  ...fields,
});

describe("mergeHealthReports", () => {
  it.each<{ name: string; reports: HealthReport[]; expected: Omit<HealthReport, "source"> }>([
    { name: "nothing", reports: [], expected: { successes: [], alerts: [] } },
    {
      name: "an alert beats a success of the same key, from any report",
      reports: [
        report("a", {
          successes: [
            { id: "Fan", target: "fan1" },
            { id: "Fan", target: "fan2" },
          ],
        }),
        report("b", { alerts: [alert("Fan", { target: "fan1" })] }),
      ],
      expected: {
        successes: [{ id: "Fan", target: "fan2" }],
        alerts: [alert("Fan", { target: "fan1" })],
      },
    },
    {
      name: "the same id on different targets stays apart",
      reports: [
        report("a", { alerts: [alert("Fan", { target: "fan2", classifications: ["Hardware"] })] }),
        report("b", { alerts: [alert("Fan", { target: "fan1" })] }),
      ],
      expected: {
        successes: [],
        alerts: [
          alert("Fan", { target: "fan1" }),
          alert("Fan", { target: "fan2", classifications: ["Hardware"] }),
        ],
      },
    },
    {
      name: "the same key: classifications as a sorted set, messages joined, earliest inAlertSince",
      reports: [
        report("a", {
          alerts: [
            alert("HeartbeatTimeout", {
              message: "dpu1 silent",
              tenantMessage: "network degraded",
              inAlertSince: "2024-05-01T10:00:00.000Z",
              classifications: ["PreventHostStateChanges", "PreventAllocations"],
            }),
          ],
        }),
        report("b", {
          alerts: [
            alert("HeartbeatTimeout", {
              message: "dpu2 silent",
              inAlertSince: "2024-05-01T09:00:00.000Z",
              classifications: ["PreventAllocations", "SuppressExternalAlerting"],
            }),
          ],
        }),
        report("c", {
          alerts: [alert("HeartbeatTimeout", { message: "dpu1 silent", tenantMessage: "retry later" })],
        }),
      ],
      expected: {
        successes: [],
        alerts: [
          {
            id: "HeartbeatTimeout",
            message: "dpu1 silent\ndpu2 silent",
            tenantMessage: "network degraded\nretry later",
            inAlertSince: "2024-05-01T09:00:00.000Z",
            classifications: ["PreventAllocations", "PreventHostStateChanges", "SuppressExternalAlerting"],
          },
        ],
      },
    },
    {
      name: "observedAt is the earliest instant, whatever the offset it is written with",
      reports: [
        report("a", { observedAt: "2024-05-01T10:00:00.000Z" }),
        report("b", { observedAt: "2024-05-01T11:30:00+02:00" }),
        report("c"),
      ],
      expected: { observedAt: "2024-05-01T11:30:00+02:00", successes: [], alerts: [] },
    },
    {
      name: "output ordered by id, then target (none first), and successes deduplicated",
      reports: [
        report("a", { successes: [{ id: "Psu", target: "b" }, { id: "Bgp" }, { id: "Psu" }] }),
        report("b", { successes: [{ id: "Psu", target: "a" }, { id: "Bgp" }] }),
      ],
      expected: {
        successes: [{ id: "Bgp" }, { id: "Psu" }, { id: "Psu", target: "a" }, { id: "Psu", target: "b" }],
        alerts: [],
      },
    },
  ])("$name", ({ reports, expected }) => {
    expect(mergeHealthReports(reports, { source: "aggregate" })).toEqual({
      source: "aggregate",
      ...expected,
    });
  });

  it("is idempotent and order-independent", () => {
    const a = report("a", {
      observedAt: "2024-05-01T10:00:00.000Z",
      successes: [{ id: "Disk" }],
      alerts: [alert("Bgp", { target: "tor1", classifications: ["B", "A", "B"] })],
    });
    const b = report("b", {
      alerts: [alert("Bgp", { target: "tor2" })],
      successes: [{ id: "Bgp", target: "tor1" }],
    });
    const once = mergeHealthReports([a, b], { source: "m" });
    expect(mergeHealthReports([b, a], { source: "m" })).toEqual(once);
    expect(mergeHealthReports([once, a, b], { source: "m" })).toEqual(once);
    expect(once.alerts[0]?.classifications).toEqual(["A", "B"]);
  });

  it("does not change its inputs", () => {
    const input = report("a", { alerts: [alert("X", { classifications: ["Z", "A"] })] });
    const copy = structuredClone(input);
    mergeHealthReports([input, input], { source: "m" });
    expect(input).toEqual(copy);
  });
});
