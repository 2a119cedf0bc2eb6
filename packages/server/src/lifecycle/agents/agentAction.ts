import type { MachineKind } from "../../explorer/machineIds.js";
import type { PendingHostTestRun } from "../hostTests/index.js";
import type { ManagedHostState } from "../states.js";
import type { MachineReportsRow } from "./agentStore.js";

export type AgentActionKind = "noop" | "discovery" | "cleanup" | "validation" | "reset";

export interface AgentAction {
  action: AgentActionKind;
  /** validation only: why it runs (discovery | cleanup | onDemand). */
  validationContext?: string;
  /** validation of host tests only: the run and its tests. */
  hostTests?: PendingHostTestRun;
}

export interface AgentActionInput {
  state: ManagedHostState;
  /** When the host entered `state`. */
  enteredAt: Date;
  /** The host's machine_reports row (never a DPU's). */
  reports:
    | Pick<MachineReportsRow, "discovery_completed_at" | "cleanup_completed_at" | "validation_completed_at">
    | undefined;
  /** Whether the host agent runs the validation tests (else validation runners do, without it). */
  hostAgentValidation: boolean;
  kind: MachineKind;
  /** The host's run of host tests waiting for its agent (read only while the host is in validation). */
  hostTestRun?: PendingHostTestRun | null;
}

/**
 * What the host agent should do next (AgentControl). A report counts for the current state only if it
 * came after the host entered it: an older one answers an earlier request (a previous cleanup, say), so the
 * agent is asked again. Only the host agent gets work; a DPU's agent never does.
 */
export function agentAction(input: AgentActionInput): AgentAction {
  const { state, reports } = input;
  if (input.kind === "dpu") return { action: "noop" };
  const pending = (reportedAt: Date | null | undefined) =>
    !reportedAt || reportedAt.getTime() <= input.enteredAt.getTime();
  switch (state.state) {
    case "hostInit":
      return state.machineState.step === "waitingForDiscovery" && pending(reports?.discovery_completed_at)
        ? { action: "discovery" }
        : { action: "noop" };
    case "bomValidating":
      // A fresh inventory: the host agent runs its discovery again (DiscoverMachine, then DiscoveryCompleted).
      return state.bomState.step === "updatingInventory" && pending(reports?.discovery_completed_at)
        ? { action: "discovery" }
        : { action: "noop" };
    case "waitingForCleanup":
      return state.cleanupState.step === "hostCleanup" && pending(reports?.cleanup_completed_at)
        ? { action: "cleanup" }
        : { action: "noop" };
    case "validation":
      if (input.hostTestRun) {
        return { action: "validation", validationContext: state.context, hostTests: input.hostTestRun };
      }
      return input.hostAgentValidation && pending(reports?.validation_completed_at)
        ? { action: "validation", validationContext: state.context }
        : { action: "noop" };
    default:
      return { action: "noop" };
  }
}
