import type { ObjectStateView } from "@racksmith/core/engine";
import { describe, expect, it } from "vitest";
import { machineLifecycle, stateLabelOf } from "./machineLifecycle.js";

const failure = {
  cause: "cleanup",
  source: "hostAgent",
  message: "nvme1 could not be wiped",
  failedAt: "2026-01-01T00:00:00.000Z",
  failedIn: "waitingForCleanup/hostCleanup",
};

function object(
  state: { state: string; [key: string]: unknown },
  history: ObjectStateView["history"] = [],
): ObjectStateView {
  return {
    objectType: "managed-host",
    objectId: "h-1",
    state,
    stateLabel: "whatever the engine says",
    version: 4,
    enteredAt: "2026-01-01T00:00:00.000Z",
    timeInStateMs: 90_000,
    sla: { slaMs: 0, aboveSla: true },
    outcome: { kind: "doNothing", at: "2026-01-01T00:01:00.000Z" },
    history,
  };
}

/** A history entry (states are open JSON objects, so the literal is built outside the TaggedState context). */
function entry(state: { state: string; [key: string]: unknown }, version: number, enteredAt: string) {
  const failed = state.state === "failed";
  const exitOutcome = failed
    ? null
    : { kind: "error" as const, error: cleanupError, at: "2026-01-01T00:00:00.000Z" };
  return { state, version, enteredAt, slaMs: failed ? 0 : null, exitOutcome };
}

const cleanupError = { code: "bmc_unreachable", message: "BMC did not answer" };

describe("machineLifecycle", () => {
  it("is null with no history for a host without a lifecycle object", () => {
    expect(machineLifecycle(undefined)).toEqual({ lifecycle: null, history: [] });
  });

  it("shows a failed host's failure, its outcome and SLA, and labels the history", () => {
    const detail = machineLifecycle(
      object({ state: "failed", details: failure }, [
        entry({ state: "failed", details: failure }, 4, "2026-01-01T00:00:00.000Z"),
        entry(
          { state: "waitingForCleanup", cleanupState: { step: "hostCleanup" } },
          3,
          "2025-12-31T23:00:00.000Z",
        ),
      ]),
    );
    expect(detail.lifecycle).toEqual({
      stateLabel: "failed",
      state: { state: "failed", details: failure },
      enteredAt: "2026-01-01T00:00:00.000Z",
      timeInStateMs: 90_000,
      sla: { slaMs: 0, aboveSla: true },
      outcome: { kind: "doNothing", at: "2026-01-01T00:01:00.000Z" },
      failure,
    });
    expect(detail.history.map((entry) => [entry.state, entry.label, entry.slaMs])).toEqual([
      ["failed", "failed", 0],
      ["waitingForCleanup", "waitingForCleanup/hostCleanup", null],
    ]);
    expect(detail.history.map((entry) => entry.exitOutcome?.error?.code ?? null)).toEqual([
      null,
      "bmc_unreachable",
    ]);
  });

  it("has no failure outside failed", () => {
    const detail = machineLifecycle(
      object({ state: "hostInit", machineState: { step: "machineSetup", retryCount: 0 } }),
    );
    expect(detail.lifecycle).toMatchObject({ stateLabel: "hostInit/machineSetup", failure: null });
  });

  it("labels a state missing its substate by its tag instead of failing", () => {
    expect(stateLabelOf({ state: "hostInit" })).toBe("hostInit");
  });
});
