import type { HealthReport } from "@racksmith/core/health";
import { describe, expect, it } from "vitest";
import {
  allocationBlockers,
  blocksHostStateChanges,
  excludedFromSla,
  stopsAutomaticReboots,
  suppressesExternalAlerting,
  tenantVisibleAlerts,
} from "./effects.js";

const withClassifications = (...classifications: string[]): HealthReport => ({
  source: "aggregate-host-health",
  successes: [],
  alerts: [
    { id: "A", message: "a", classifications },
    { id: "B", message: "b", classifications: [] },
  ],
});

describe("classification effects", () => {
  it.each([
    ["PreventAllocations", { allocation: true, states: false, reboots: false, sla: false, alerting: false }],
    [
      "PreventHostStateChanges",
      { allocation: false, states: true, reboots: false, sla: false, alerting: false },
    ],
    [
      "StopRebootForAutomaticRecoveryFromStateMachine",
      { allocation: false, states: false, reboots: true, sla: false, alerting: false },
    ],
    [
      "ExcludeFromStateMachineSla",
      { allocation: false, states: false, reboots: false, sla: true, alerting: false },
    ],
    [
      "SuppressExternalAlerting",
      { allocation: false, states: false, reboots: false, sla: false, alerting: true },
    ],
    ["Hardware", { allocation: false, states: false, reboots: false, sla: false, alerting: false }],
  ])("%s", (classification, expected) => {
    const report = withClassifications(classification);
    expect({
      allocation: allocationBlockers(report).length > 0,
      states: blocksHostStateChanges(report),
      reboots: stopsAutomaticReboots(report),
      sla: excludedFromSla(report),
      alerting: suppressesExternalAlerting(report),
    }).toEqual(expected);
  });

  it("names the alerts that block allocation, and nothing blocks without a report", () => {
    expect(allocationBlockers(withClassifications("PreventAllocations")).map((a) => a.id)).toEqual(["A"]);
    expect(allocationBlockers(undefined)).toEqual([]);
    expect(blocksHostStateChanges(undefined)).toBe(false);
  });

  it("shows tenants only alerts with a tenant message, reduced to it", () => {
    const report: HealthReport = {
      source: "aggregate-host-health",
      successes: [],
      alerts: [
        { id: "Internal", message: "tor1 BGP down", classifications: ["PreventAllocations"] },
        {
          id: "Degraded",
          target: "gpu3",
          inAlertSince: "2024-06-01T00:00:00.000Z",
          message: "GPU3 ECC errors, ticket OPS-1",
          tenantMessage: "GPU 3 is degraded",
          classifications: ["Hardware"],
        },
      ],
    };
    expect(tenantVisibleAlerts(report)).toEqual([
      {
        id: "Degraded",
        target: "gpu3",
        inAlertSince: "2024-06-01T00:00:00.000Z",
        message: "GPU 3 is degraded",
        tenantMessage: "GPU 3 is degraded",
        classifications: [],
      },
    ]);
  });
});
