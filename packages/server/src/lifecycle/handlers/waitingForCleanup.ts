import { isNotSupported } from "@racksmith/core";
import { transition } from "@racksmith/core/engine";
import type { HostOutcome, Step } from "../machine/step.js";
import type { ManagedHostState } from "../states.js";
import { enterBomValidation } from "./bomValidating.js";

type State = Extract<ManagedHostState, { state: "waitingForCleanup" }>;

/** Cleanup: the host agent wipes the disks (asked through AgentControl), then lockdown goes back on. */
export async function handleWaitingForCleanup(step: Step, state: State): Promise<HostOutcome> {
  if (state.cleanupState.step === "lockHost") {
    await (await step.bmc(step.host)).setLockdown(true).catch((error: unknown) => {
      if (!isNotSupported(error)) throw error;
    });
    return enterBomValidation(step, "cleanup");
  }
  const reports = step.snapshot.reports.get(step.host.id);
  if (step.since(reports?.cleanup_completed_at)) {
    if (reports?.cleanup_result?.success === false) {
      return step.fail("cleanup", "hostAgent", `cleanup failed: ${reports.cleanup_result.message}`);
    }
    return transition({ state: "waitingForCleanup", cleanupState: { step: "lockHost" } });
  }
  return step.waitWithReboots(step.host, "waiting for the host agent to wipe the host", {
    kick: false,
    cause: "cleanup",
    source: "stateMachine/waitingForCleanup",
  });
}
