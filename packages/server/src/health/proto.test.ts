import { InvalidArgumentError } from "@racksmith/core";
import type { HealthReport } from "@racksmith/core/health";
import { describe, expect, it } from "vitest";
import type { HealthReport__Output } from "../api/grpc/generated/racksmith/v1/HealthReport.js";
import { healthReportFromProto, healthReportToProto } from "./proto.js";

const report: HealthReport = {
  source: "forge-dpu-agent",
  triggeredBy: "alice",
  observedAt: "2024-06-01T12:00:00.250Z",
  successes: [{ id: "Disk" }, { id: "Bgp", target: "tor1" }],
  alerts: [
    {
      id: "Bgp",
      target: "tor2",
      inAlertSince: "2024-06-01T11:00:00.000Z",
      message: "down",
      tenantMessage: "network degraded",
      classifications: ["PreventAllocations"],
    },
    { id: "Svc", message: "stopped", classifications: [] },
  ],
};

describe("health report protobuf form", () => {
  it("converts Timestamps and optional fields both ways", () => {
    const message = healthReportToProto(report);
    expect(message.observedAt).toEqual({ seconds: "1717243200", nanos: 250_000_000 });
    expect(message.alerts?.[1]).toEqual({
      id: "Svc",
      inAlertSince: null,
      message: "stopped",
      classifications: [],
    });
    expect(healthReportFromProto(message)).toEqual(report);
  });

  it("reads a decoded request, where unset fields are empty strings and null Timestamps", () => {
    const decoded: HealthReport__Output = {
      source: "sre",
      observedAt: null,
      successes: [{ id: "Disk", target: "" }],
      alerts: [
        {
          id: "X",
          inAlertSince: { seconds: "0", nanos: 0 },
          message: "m",
          tenantMessage: "",
          classifications: ["B", "A"],
        },
      ],
    };
    expect(healthReportFromProto(decoded)).toEqual({
      source: "sre",
      successes: [{ id: "Disk" }],
      alerts: [{ id: "X", message: "m", classifications: ["A", "B"] }],
    });
  });

  it.each<[string, HealthReport__Output, RegExp]>([
    ["no source", { source: "", observedAt: null, successes: [], alerts: [] }, /source/],
    [
      "an alert without id",
      {
        source: "s",
        observedAt: null,
        successes: [],
        alerts: [{ id: "", inAlertSince: null, message: "m", classifications: [] }],
      },
      /alerts\[0\]\.id/,
    ],
  ])("refuses %s with InvalidArgumentError naming the field", (_, message, pattern) => {
    expect(() => healthReportFromProto(message, "InsertHealthReportOverride")).toThrow(InvalidArgumentError);
    expect(() => healthReportFromProto(message, "InsertHealthReportOverride")).toThrow(pattern);
  });
});
