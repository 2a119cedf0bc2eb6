import { describe, expect, it } from "vitest";
import type { ManagedHostState } from "../states.js";
import { type AgentActionInput, agentAction } from "./agentAction.js";

const entered = new Date("2026-01-01T10:00:00Z");
const before = new Date("2026-01-01T09:00:00Z");
const after = new Date("2026-01-01T11:00:00Z");
const none = { discovery_completed_at: null, cleanup_completed_at: null, validation_completed_at: null };

const waitingForDiscovery: ManagedHostState = {
  state: "hostInit",
  machineState: { step: "waitingForDiscovery" },
};
const hostCleanup: ManagedHostState = { state: "waitingForCleanup", cleanupState: { step: "hostCleanup" } };
const validation: ManagedHostState = { state: "validation", context: "cleanup" };
const updatingInventory: ManagedHostState = {
  state: "bomValidating",
  context: "onDemand",
  bomState: { step: "updatingInventory" },
};

describe("agentAction", () => {
  const cases: Array<[string, Partial<AgentActionInput>, ReturnType<typeof agentAction>]> = [
    [
      "a DPU never gets work",
      { kind: "dpu", state: waitingForDiscovery, reports: undefined },
      { action: "noop" },
    ],
    [
      "discovery, never reported",
      { state: waitingForDiscovery, reports: undefined },
      { action: "discovery" },
    ],
    [
      "discovery reported before the state was entered",
      { state: waitingForDiscovery, reports: { ...none, discovery_completed_at: before } },
      { action: "discovery" },
    ],
    [
      "discovery reported at the very entry time is not after it",
      { state: waitingForDiscovery, reports: { ...none, discovery_completed_at: entered } },
      { action: "discovery" },
    ],
    [
      "discovery reported after entry",
      { state: waitingForDiscovery, reports: { ...none, discovery_completed_at: after } },
      { action: "noop" },
    ],
    [
      "other hostInit steps",
      { state: { state: "hostInit", machineState: { step: "enableLockdown" } } },
      { action: "noop" },
    ],
    [
      "a fresh inventory for BOM validation, the last discovery older than the request",
      { state: updatingInventory, reports: { ...none, discovery_completed_at: before } },
      { action: "discovery" },
    ],
    [
      "a fresh inventory reported after entry",
      { state: updatingInventory, reports: { ...none, discovery_completed_at: after } },
      { action: "noop" },
    ],
    [
      "other BOM steps",
      {
        state: {
          state: "bomValidating",
          context: "discovery",
          bomState: { step: "waitingForSkuAssignment" },
        },
      },
      { action: "noop" },
    ],
    [
      "host tests waiting for the agent: the run and its tests, whatever hostAgentValidation says",
      {
        state: validation,
        reports: none,
        hostAgentValidation: false,
        hostTestRun: { runId: "r-1", context: "cleanup", tests: [] },
      },
      {
        action: "validation",
        validationContext: "cleanup",
        hostTests: { runId: "r-1", context: "cleanup", tests: [] },
      },
    ],
    ["cleanup, never reported", { state: hostCleanup, reports: none }, { action: "cleanup" }],
    [
      "cleanup reported for an earlier cleanup",
      { state: hostCleanup, reports: { ...none, cleanup_completed_at: before } },
      { action: "cleanup" },
    ],
    [
      "cleanup reported after entry",
      { state: hostCleanup, reports: { ...none, cleanup_completed_at: after } },
      { action: "noop" },
    ],
    [
      "lockHost is the lifecycle's own step",
      { state: { state: "waitingForCleanup", cleanupState: { step: "lockHost" } } },
      { action: "noop" },
    ],
    [
      "validation by the host agent",
      { state: validation, hostAgentValidation: true },
      { action: "validation", validationContext: "cleanup" },
    ],
    [
      "validation by the host agent, already reported",
      { state: validation, hostAgentValidation: true, reports: { ...none, validation_completed_at: after } },
      { action: "noop" },
    ],
    [
      "validation by the host agent, reported for an earlier run",
      {
        state: { state: "validation", context: "discovery" },
        hostAgentValidation: true,
        reports: { ...none, validation_completed_at: before },
      },
      { action: "validation", validationContext: "discovery" },
    ],
    ["validation by runners", { state: validation, hostAgentValidation: false }, { action: "noop" }],
    ["ready", { state: { state: "ready" } }, { action: "noop" }],
    [
      "assigned",
      { state: { state: "assigned", instanceId: "i-1", instanceState: { step: "ready" } } },
      { action: "noop" },
    ],
    [
      "failed",
      {
        state: {
          state: "failed",
          details: { cause: "cleanup", source: "hostAgent", message: "x", failedAt: "", failedIn: "" },
        },
      },
      { action: "noop" },
    ],
  ];
  it.each(cases)("%s", (_name, input, expected) => {
    expect(
      agentAction({
        state: { state: "ready" },
        enteredAt: entered,
        reports: undefined,
        hostAgentValidation: false,
        kind: "host",
        ...input,
      }),
    ).toEqual(expected);
  });
});
