import { describe, expect, it } from "vitest";
import { type AgentReport, agentReportWakes, type ManagedHostState } from "./states.js";

const HOST_INIT: ManagedHostState = { state: "hostInit", machineState: { step: "waitingForDiscovery" } };
const DPU_INIT: ManagedHostState = { state: "dpuInit", dpus: { "d-1": "waitingForDiscovery" } };
const BOM: ManagedHostState = {
  state: "bomValidating",
  context: "discovery",
  bomState: { step: "updatingInventory" },
};
const VALIDATION: ManagedHostState = { state: "validation", context: "discovery" };
const DISCOVERED: ManagedHostState = { state: "discovered", skipRebootWait: false };
const ASSIGNED: ManagedHostState = {
  state: "assigned",
  instanceId: "i-1",
  instanceState: { step: "waitingForRebootToReady" },
};
const CLEANUP: ManagedHostState = { state: "waitingForCleanup", cleanupState: { step: "hostCleanup" } };
const READY: ManagedHostState = { state: "ready" };

describe("agentReportWakes: a report runs its host only in a state whose handler reads it", () => {
  it.each<[AgentReport, ManagedHostState | null, boolean]>([
    // The inventory (DiscoverMachine, at every boot of the agent)
    ["discovery", BOM, true],
    ["discovery", VALIDATION, true],
    ["discovery", HOST_INIT, false],
    ["discovery", DPU_INIT, false],
    ["discovery", READY, false],
    // discovery_completed_at
    ["discoveryCompleted", DPU_INIT, true],
    ["discoveryCompleted", HOST_INIT, true],
    ["discoveryCompleted", BOM, true],
    ["discoveryCompleted", DISCOVERED, false],
    // reboot_completed_at
    ["rebootCompleted", DISCOVERED, true],
    ["rebootCompleted", ASSIGNED, true],
    ["rebootCompleted", HOST_INIT, false],
    ["rebootCompleted", DPU_INIT, false],
    // cleanup_completed_at, validation_completed_at
    ["cleanupCompleted", CLEANUP, true],
    ["cleanupCompleted", ASSIGNED, false],
    ["validationCompleted", VALIDATION, true],
    ["validationCompleted", READY, false],
    // A host without a lifecycle object has nothing to run.
    ["discoveryCompleted", null, false],
  ])("%s in %j → %s", (report, state, wakes) => {
    expect(agentReportWakes(report, state)).toBe(wakes);
  });
});
