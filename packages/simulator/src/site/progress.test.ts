import type { ObjectStateView } from "@racksmith/core/engine";
import { describe, expect, it } from "vitest";
import { countByState, progressLine, stuckHosts, transitionCount } from "./progress.js";

function host(
  id: string,
  state: string,
  version: number,
  outcome?: ObjectStateView["outcome"],
): ObjectStateView {
  return {
    objectType: "managed-host",
    objectId: id,
    state: { state },
    stateLabel: `${state}/sub`,
    version,
    enteredAt: "2026-01-01T00:00:00.000Z",
    timeInStateMs: 0,
    sla: { slaMs: null, aboveSla: state === "hostInit" },
    outcome: outcome ?? null,
    history: [],
  };
}

const hosts = [
  host("h1", "ready", 21),
  host("h2", "hostInit", 5, { kind: "wait", reason: "waiting for the DPU", at: "2026-01-01T00:00:01.000Z" }),
  host("h3", "dpuInit", 3),
  host("h4", "ready", 22),
];

describe("site progress", () => {
  it("counts hosts per top-level state and the transitions since creation", () => {
    expect(countByState(hosts)).toEqual({ ready: 2, hostInit: 1, dpuInit: 1 });
    expect(transitionCount(hosts)).toBe(20 + 4 + 2 + 21);
  });

  it("shows ready first, the other states by name, and the hosts not ingested yet", () => {
    expect(progressLine(hosts, 6, 12_400)).toBe("  12 s  2 ready · 1 dpuInit · 1 hostInit · 2 not ingested");
    expect(progressLine([], 0, 0)).toBe("   0 s  ");
  });

  it("lists the hosts not in the target state with their label, SLA flag and wait reason", () => {
    expect(stuckHosts(hosts, "ready")).toEqual([
      { id: "h2", state: "hostInit/sub", aboveSla: true, reason: "waiting for the DPU" },
      { id: "h3", state: "dpuInit/sub", aboveSla: false, reason: "not run yet" },
    ]);
  });
});
