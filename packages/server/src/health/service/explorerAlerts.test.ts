import { describe, expect, it } from "vitest";
import { serialNumberMismatch } from "../../explorer/findings.js";
import { type ExploredBmcFacts, explorerFindingsReport } from "./explorerAlerts.js";

const at = new Date("2026-04-01T08:00:00.000Z");
const host: ExploredBmcFacts = {
  machineId: "h-1",
  kind: "host",
  address: "10.0.0.1",
  lastError: null,
  findings: [],
  systemPowerStates: ["On"],
  lastExploredAt: at,
};
const dpu: ExploredBmcFacts = { ...host, machineId: "d-1", kind: "dpu", address: "10.0.0.2" };
const unreachable = { code: "unreachable", message: "connect ECONNREFUSED" } as const;
const mismatch = serialNumberMismatch("SER-A", ["SER-B"]);

describe("explorerFindingsReport", () => {
  it.each<[string, ExploredBmcFacts[], [string, string][]]>([
    ["a healthy host and DPU", [host, dpu], []],
    ["no exploration yet", [], []],
    [
      "an unreachable host BMC",
      [{ ...host, lastError: unreachable }],
      [["BmcExplorationFailure", "10.0.0.1"]],
    ],
    [
      "an unreachable DPU BMC",
      [host, { ...dpu, lastError: unreachable }],
      [["BmcExplorationFailure", "10.0.0.2"]],
    ],
    ["a serial mismatch", [{ ...host, findings: [mismatch] }], [["SerialNumberMismatch", "10.0.0.1"]]],
    ["a host powered off", [{ ...host, systemPowerStates: ["Off"] }], [["PoweredOff", "10.0.0.1"]]],
    ["a host powering on (transient, not Off)", [{ ...host, systemPowerStates: ["PoweringOn"] }], []],
    ["a DPU reporting Off (its power follows the host's)", [{ ...dpu, systemPowerStates: ["Off"] }], []],
    [
      "Off in a report older than the lifecycle's last power action (a power cycle it ran)",
      [{ ...host, systemPowerStates: ["Off"], lastPowerActionAt: new Date(at.getTime() + 1_000) }],
      [],
    ],
    [
      "Off in a report taken after the lifecycle's last power action",
      [{ ...host, systemPowerStates: ["Off"], lastPowerActionAt: new Date(at.getTime() - 1_000) }],
      [["PoweredOff", "10.0.0.1"]],
    ],
    [
      "everything at once",
      [{ ...host, lastError: unreachable, findings: [mismatch], systemPowerStates: ["Off"] }],
      [
        ["BmcExplorationFailure", "10.0.0.1"],
        ["SerialNumberMismatch", "10.0.0.1"],
        ["PoweredOff", "10.0.0.1"],
      ],
    ],
  ])("%s", (_name, bmcs, expected) => {
    const report = explorerFindingsReport(bmcs);
    expect(report?.alerts.map((a) => [a.id, a.target]) ?? []).toEqual(expected);
    for (const alert of report?.alerts ?? []) expect(alert.classifications).toEqual(["PreventAllocations"]);
  });

  it("names the machine and the cause, as the site-explorer source observed at the exploration", () => {
    const report = explorerFindingsReport([
      { ...host, lastError: unreachable },
      { ...dpu, findings: [mismatch] },
    ]);
    expect(report).toMatchObject({ source: "site-explorer", observedAt: at.toISOString() });
    expect(report?.alerts.map((a) => a.message)).toEqual([
      "host h-1 (BMC 10.0.0.1): exploration failed (unreachable): connect ECONNREFUSED",
      'DPU d-1 (BMC 10.0.0.2): expected chassis serial "SER-A", the BMC reports "SER-B"',
    ]);
  });
});
