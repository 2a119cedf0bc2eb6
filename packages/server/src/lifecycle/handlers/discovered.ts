import { transition } from "@racksmith/core/engine";
import type { HostOutcome, Step } from "../machine/step.js";
import type { ManagedHostState } from "../states.js";

type State = Extract<ManagedHostState, { state: "discovered" }>;

/** Discovered: restart the host and wait for its agent's reboot report; then the host is Ready. */
export async function handleDiscovered(step: Step, state: State): Promise<HostOutcome> {
  if (state.skipRebootWait || step.since(step.snapshot.reports.get(step.host.id)?.reboot_completed_at)) {
    return transition({ state: "ready" });
  }
  return step.waitWithReboots(step.host, "waiting for the host agent to report the reboot", {
    kick: true,
    cause: "discovery",
    source: "stateMachine/hostInit",
  });
}
