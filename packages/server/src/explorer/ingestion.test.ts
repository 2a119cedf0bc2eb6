import type { ExplorationReport, PowerState } from "@racksmith/core";
import { describe, expect, it } from "vitest";
import { hostReport, nonHostReport } from "./__fixtures__/reports.js";
import { decideIngestion, type IngestionDecision, type IngestionInput } from "./ingestion.js";
import type { PairedDpu, PairingResult } from "./pairing.js";

const NOW = new Date("2026-03-01T12:00:00Z");
const HOUR = 3_600_000;
const DPU: PairedDpu = {
  address: "10.0.0.2",
  bmcMac: "AA:00:00:00:00:02",
  serial: "MT1",
  hostFacingMac: "B8:3F:D2:00:00:01",
  primary: true,
};
const PAIRED: PairingResult = { status: "paired", dpus: [DPU], nicModeSerials: [] };

function input(
  overrides: Partial<IngestionInput> & { power?: PowerState; serial?: string; unread?: string[] } = {},
): IngestionInput {
  const { power, serial, unread = [], ...rest } = overrides;
  const report = hostReport({ serial: serial ?? "SER-1 ", chassisSerial: "CHS-1", power: power ?? "On" });
  for (const path of unread)
    report.diagnostics.push({ severity: "warning", path, message: "timed out", unread: true });
  return {
    report,
    expected: { chassisSerial: "SER-1" },
    ingested: false,
    pairing: PAIRED,
    attachedDpuSerials: new Set(),
    lastPowerOnAt: undefined,
    powerOn: { enabled: true, retryAfterMs: HOUR },
    now: NOW,
    ...rest,
  };
}

const CASES: Array<[string, IngestionInput, Partial<IngestionDecision>]> = [
  [
    "ingests a complete, expected, powered-on host",
    input(),
    { action: "ingest", serial: "SER-1", dpus: [DPU] },
  ],
  [
    "accepts the expected serial on the chassis",
    input({ expected: { chassisSerial: " CHS-1 " } }),
    { action: "ingest", serial: "CHS-1" },
  ],
  ["never ingests a host twice", input({ ingested: true }), { action: "none", status: "ingested" }],
  [
    "leaves a host alone that is not in expected machines",
    input({ expected: undefined }),
    { action: "none", status: "unexpected" },
  ],
  [
    "rejects a serial mismatch with a SerialNumberMismatch finding",
    input({ expected: { chassisSerial: "OTHER" } }),
    {
      action: "reject",
      code: "serial_number_mismatch",
      finding: {
        code: "SerialNumberMismatch",
        message: expect.stringContaining("OTHER"),
        details: { expected: "OTHER", found: ["SER-1", "CHS-1"] },
      },
    },
  ],
  ["powers on a host that is off", input({ power: "Off" }), { action: "power-on", status: "waiting" }],
  [
    "powers on only once per retry period",
    input({ power: "Off", lastPowerOnAt: new Date(NOW.getTime() - HOUR / 2) }),
    { action: "wait", code: "host_not_powered_on" },
  ],
  [
    "powers on again once the retry period is over",
    input({ power: "Off", lastPowerOnAt: new Date(NOW.getTime() - HOUR) }),
    { action: "power-on" },
  ],
  [
    "does not power on when it is disabled",
    input({ power: "Off", powerOn: { enabled: false, retryAfterMs: HOUR } }),
    { action: "wait", reason: expect.stringContaining("powerOn.enabled") },
  ],
  [
    "waits for a host that is powering on",
    input({ power: "PoweringOn" }),
    { action: "wait", code: "host_not_powered_on" },
  ],
  [
    "checks the serial before powering on",
    input({ power: "Off", expected: { chassisSerial: "OTHER" } }),
    { action: "reject", code: "serial_number_mismatch" },
  ],
  [
    "waits for an incomplete pairing",
    input({ pairing: { status: "waiting", code: "dpu_not_explored", reason: "DPU MT1 not explored yet" } }),
    { action: "wait", code: "dpu_not_explored", reason: "DPU MT1 not explored yet" },
  ],
  [
    "rejects a rejected pairing",
    input({ pairing: { status: "rejected", code: "dpu_in_nic_mode", reason: "DPU MT1 is in NIC mode" } }),
    { action: "reject", code: "dpu_in_nic_mode" },
  ],
  [
    "rejects a DPU another managed host already owns",
    input({ attachedDpuSerials: new Set(["MT1"]) }),
    { action: "reject", code: "dpu_attached_elsewhere" },
  ],
  [
    "waits instead of rejecting a serial mismatch when parts of the report could not be read",
    input({
      expected: { chassisSerial: "OTHER" },
      unread: ["/redfish/v1/Chassis/1", "/redfish/v1/Chassis/2"],
    }),
    {
      action: "wait",
      status: "waiting",
      code: "report_incomplete",
      reason: expect.stringMatching(
        /serial_number_mismatch.*\/redfish\/v1\/Chassis\/1, \/redfish\/v1\/Chassis\/2$/,
      ),
    },
  ],
  [
    "waits instead of rejecting a pairing drawn from an incomplete report",
    input({
      pairing: { status: "rejected", code: "no_dpu_found", reason: "no BlueField" },
      unread: ["/a", "/b", "/c", "/d", "/e"],
    }),
    { action: "wait", code: "report_incomplete", reason: expect.stringContaining("/a, /b, /c, and 2 more") },
  ],
  [
    "still rejects a DPU another managed host owns, whatever the report lacks",
    input({ attachedDpuSerials: new Set(["MT1"]), unread: ["/a"] }),
    { action: "reject", code: "dpu_attached_elsewhere" },
  ],
  [
    "ingests a host whose report lacks parts it does not need",
    input({ unread: ["/redfish/v1/UpdateService"] }),
    { action: "ingest" },
  ],
  [
    "rejects an NVLink switch tray, even one listed in expected machines with its serial",
    input({ report: nonHostReport({ kind: "switch", chassisSerial: "SER-1" }) }),
    {
      action: "reject",
      status: "rejected",
      code: "not_a_host",
      reason: "not a host: an NVLink switch tray (chassis MGX_NVSwitch_0); only hosts are ingested",
    },
  ],
  [
    "rejects a power shelf that is not in expected machines as not a host (not merely unexpected)",
    input({ report: nonHostReport({ kind: "powerShelf" }), expected: undefined }),
    { action: "reject", code: "not_a_host", reason: expect.stringContaining("not a host: a power shelf") },
  ],
  [
    "rejects a switch whatever its report lacks: it shows what it is",
    input({ report: withUnread(nonHostReport({ kind: "switch" }), "/redfish/v1/Fabrics") }),
    { action: "reject", code: "not_a_host" },
  ],
  [
    "waits on a BMC that showed no host while parts of its report were unread (maybe its Systems)",
    input({ report: withUnread(nonHostReport({ kind: "unknown" }), "/redfish/v1/Systems") }),
    { action: "wait", code: "report_incomplete", reason: expect.stringContaining("not_a_host") },
  ],
  [
    "rejects a BMC that shows no host in a whole report",
    input({ report: nonHostReport({ kind: "unknown" }) }),
    { action: "reject", code: "not_a_host", reason: expect.stringContaining("no host computer system") },
  ],
  [
    "reads a report stored before reports had a kind as a host's",
    input({ report: withoutKind(hostReport({ serial: "SER-1" })) }),
    { action: "ingest", serial: "SER-1" },
  ],
  [
    "ingests a bare host (no DPU expected)",
    input({ pairing: { status: "paired", dpus: [], nicModeSerials: [] } }),
    { action: "ingest", dpus: [] },
  ],
];

function withUnread(report: ExplorationReport, path: string): ExplorationReport {
  report.diagnostics.push({ severity: "warning", path, message: "timed out", unread: true });
  return report;
}

function withoutKind(report: ExplorationReport): ExplorationReport {
  const { endpointKind: _kind, endpointKindReason: _reason, ...older } = report;
  return older as ExplorationReport;
}

describe("decideIngestion", () => {
  it.each(CASES)("%s", (_name, given, expected) => {
    expect(decideIngestion(given)).toMatchObject(expected);
  });
});
