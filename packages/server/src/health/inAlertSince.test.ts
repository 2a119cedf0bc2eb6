import type { HealthProbeAlert, HealthReport } from "@racksmith/core/health";
import { describe, expect, it } from "vitest";
import { retainInAlertSince } from "./inAlertSince.js";

const NOW = new Date("2024-06-01T12:00:00.000Z");
const EARLIER = "2024-05-01T08:00:00.000Z";
const SENT = "2024-05-20T08:00:00.000Z";

const withAlerts = (...alerts: Partial<HealthProbeAlert>[]): HealthReport => ({
  source: "forge-dpu-agent",
  successes: [],
  alerts: alerts.map((a) => ({ id: "Bgp", message: "down", classifications: [], ...a })),
});

describe("retainInAlertSince", () => {
  it.each<{ name: string; alert: Partial<HealthProbeAlert>; previous?: HealthReport; expected: string }>([
    { name: "a new alert gets now", alert: {}, expected: NOW.toISOString() },
    {
      name: "a persisting alert keeps the previous timestamp",
      alert: {},
      previous: withAlerts({ inAlertSince: EARLIER }),
      expected: EARLIER,
    },
    {
      name: "the previous timestamp wins over one the sender gives",
      alert: { inAlertSince: SENT },
      previous: withAlerts({ inAlertSince: EARLIER }),
      expected: EARLIER,
    },
    { name: "a new alert keeps the sender's timestamp", alert: { inAlertSince: SENT }, expected: SENT },
    {
      name: "the same id on another target is a new alert",
      alert: { target: "tor2" },
      previous: withAlerts({ target: "tor1", inAlertSince: EARLIER }),
      expected: NOW.toISOString(),
    },
    {
      name: "a previous alert without a timestamp gives none to keep",
      alert: {},
      previous: withAlerts({}),
      expected: NOW.toISOString(),
    },
    {
      name: "a previous success is not an alert",
      alert: {},
      previous: { source: "x", successes: [{ id: "Bgp" }], alerts: [] },
      expected: NOW.toISOString(),
    },
  ])("$name", ({ alert, previous, expected }) => {
    const stamped = retainInAlertSince(withAlerts(alert), previous, NOW);
    expect(stamped.alerts[0]?.inAlertSince).toBe(expected);
  });

  it("keeps everything else of the report", () => {
    const input: HealthReport = { ...withAlerts({}), observedAt: SENT, successes: [{ id: "Disk" }] };
    const { alerts, ...rest } = retainInAlertSince(input, undefined, NOW);
    expect(rest).toEqual({ source: "forge-dpu-agent", observedAt: SENT, successes: [{ id: "Disk" }] });
    expect(alerts).toEqual([
      { id: "Bgp", message: "down", classifications: [], inAlertSince: NOW.toISOString() },
    ]);
  });
});
