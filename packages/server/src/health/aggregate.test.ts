import type { HealthProbeAlert, HealthReport } from "@racksmith/core/health";
import { describe, expect, it } from "vitest";
import { type AggregateHealthInput, type DpuHealthInput, deriveAggregateHealth } from "./aggregate.js";

const NOW = new Date("2024-06-01T12:00:00.000Z");
const MINUTE = 60_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms);

const alert = (
  id: string,
  classifications: string[] = ["PreventAllocations"],
  target?: string,
): HealthProbeAlert => ({
  id,
  ...(target ? { target } : {}),
  message: `${id} failed`,
  classifications,
});
const report = (source: string, alerts: HealthProbeAlert[], observedAt = ago(MINUTE)): HealthReport => ({
  source,
  observedAt: observedAt.toISOString(),
  successes: [],
  alerts,
});
const healthyDpu = (id = "dpu-1"): DpuHealthInput => ({
  id,
  agentReport: report("forge-dpu-agent", []),
  lastReportAt: ago(MINUTE),
  inDiscoveryOrInit: false,
});
const input = (fields: Partial<AggregateHealthInput> = {}): AggregateHealthInput => ({
  hostMerges: [],
  dpus: [healthyDpu()],
  sensorReports: [],
  sensorAlertMode: "disabled",
  now: NOW,
  heartbeatTimeoutMs: 5 * MINUTE,
  ...fields,
});
/** Alerts as `id[/target]: classifications`, the part of the result each case is about. */
const summary = (health: HealthReport) =>
  health.alerts.map((a) => `${a.id}${a.target ? `/${a.target}` : ""}: ${a.classifications.join(",")}`);

describe("deriveAggregateHealth", () => {
  it.each<{ name: string; input: AggregateHealthInput; expected: string[] }>([
    { name: "a healthy host", input: input(), expected: [] },
    {
      name: "a DPU agent that never reported",
      input: input({ dpus: [{ id: "dpu-1", agentReport: undefined, inDiscoveryOrInit: false }] }),
      expected: ["HeartbeatTimeout/forge-dpu-agent: PreventAllocations,PreventHostStateChanges"],
    },
    {
      name: "a stale DPU agent report (its last alerts are kept)",
      input: input({
        dpus: [
          {
            id: "dpu-1",
            agentReport: report("forge-dpu-agent", [alert("BgpPeeringTor")], ago(10 * MINUTE)),
            inDiscoveryOrInit: false,
          },
        ],
      }),
      expected: [
        "BgpPeeringTor: PreventAllocations",
        "HeartbeatTimeout/forge-dpu-agent: PreventAllocations,PreventHostStateChanges",
      ],
    },
    {
      name: "lastReportAt wins over the report's observedAt",
      input: input({
        dpus: [
          {
            ...healthyDpu(),
            agentReport: report("forge-dpu-agent", [], ago(60 * MINUTE)),
            lastReportAt: ago(MINUTE),
          },
        ],
      }),
      expected: [],
    },
    {
      name: "a DPU in discovery or init: alerts kept, classifications cleared",
      input: input({
        dpus: [
          { id: "dpu-1", agentReport: undefined, inDiscoveryOrInit: true },
          {
            id: "dpu-2",
            agentReport: report("forge-dpu-agent", [alert("ServiceRunning")]),
            lastReportAt: ago(MINUTE),
            inDiscoveryOrInit: true,
          },
        ],
      }),
      expected: ["HeartbeatTimeout/forge-dpu-agent: ", "ServiceRunning: "],
    },
    {
      name: "one silent DPU of two still blocks the host",
      input: input({
        dpus: [healthyDpu("dpu-1"), { id: "dpu-2", agentReport: undefined, inDiscoveryOrInit: false }],
      }),
      expected: ["HeartbeatTimeout/forge-dpu-agent: PreventAllocations,PreventHostStateChanges"],
    },
    {
      name: "site-explorer findings, validation and merge overrides are merged",
      input: input({
        explorerFindings: report("site-explorer", [alert("PoweredOff", [])]),
        validation: report("machine-validation", [
          alert("FailedValidationTest", ["PreventAllocations"], "dcgm"),
        ]),
        hostMerges: [
          report("maintenance", [alert("Maintenance", ["PreventAllocations", "SuppressExternalAlerting"])]),
        ],
      }),
      expected: [
        "FailedValidationTest/dcgm: PreventAllocations",
        "Maintenance: PreventAllocations,SuppressExternalAlerting",
        "PoweredOff: ",
      ],
    },
    {
      name: "sensor alerts disabled: ignored",
      input: input({
        sensorReports: [
          report("hardware-health.sensors", [
            alert("BmcSensor", ["SensorCritical", "PreventAllocations"], "PSU0"),
          ]),
        ],
      }),
      expected: [],
    },
    {
      name: "sensor alerts monitorOnly: shown without classifications",
      input: input({
        sensorAlertMode: "monitorOnly",
        sensorReports: [
          report("hardware-health.sensors", [
            alert("BmcSensor", ["SensorCritical", "PreventAllocations"], "PSU0"),
          ]),
        ],
      }),
      expected: ["BmcSensor/PSU0: "],
    },
    {
      name: "sensor alerts enabled: merged as they are",
      input: input({
        sensorAlertMode: "enabled",
        sensorReports: [
          report("hardware-health.sensors", [
            alert("BmcSensor", ["SensorCritical", "PreventAllocations"], "PSU0"),
          ]),
        ],
      }),
      expected: ["BmcSensor/PSU0: PreventAllocations,SensorCritical"],
    },
    {
      name: "a replace override is the aggregate, whatever else is wrong",
      input: input({
        hostReplace: report("mark-healthy", []),
        dpus: [{ id: "dpu-1", agentReport: undefined, inDiscoveryOrInit: false }],
        explorerFindings: report("site-explorer", [alert("BmcExplorationFailure")]),
      }),
      expected: [],
    },
  ])("$name", ({ input, expected }) => {
    const health = deriveAggregateHealth(input);
    expect(health.source).toBe("aggregate-host-health");
    expect(summary(health)).toEqual(expected);
  });

  it("names every silent DPU and dates a stale heartbeat from its expiry", () => {
    const health = deriveAggregateHealth(
      input({
        dpus: [
          { id: "dpu-1", agentReport: undefined, inDiscoveryOrInit: false },
          {
            id: "dpu-2",
            agentReport: report("forge-dpu-agent", []),
            lastReportAt: ago(10 * MINUTE),
            inDiscoveryOrInit: false,
          },
        ],
      }),
    );
    expect(health.alerts[0]?.message).toBe(
      "DPU dpu-1: no health report from forge-dpu-agent\nDPU dpu-2: last health report from forge-dpu-agent at 2024-06-01T11:50:00.000Z",
    );
    expect(health.alerts[0]?.inAlertSince).toBe("2024-06-01T11:55:00.000Z");
  });

  it("is observed as of its oldest input", () => {
    const health = deriveAggregateHealth(
      input({ validation: report("machine-validation", [], ago(60 * MINUTE)) }),
    );
    expect(health.observedAt).toBe(ago(60 * MINUTE).toISOString());
  });
});
