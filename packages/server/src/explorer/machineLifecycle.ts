import type { ObjectStateView, TaggedState } from "@racksmith/core/engine";
import { type ManagedHostState, managedHostStateLabel } from "../lifecycle/states.js";
import type { MachineDetail, MachineLifecycleView } from "./views.js";

/**
 * The label of a stored managed-host state. States are JSON written by the lifecycle; one that does not have
 * the substate its tag promises (an older or hand-edited row) falls back to the bare tag instead of failing
 * the whole machine read.
 */
export function stateLabelOf(state: TaggedState): string {
  try {
    return managedHostStateLabel(state as ManagedHostState);
  } catch {
    return state.state;
  }
}

/** The machine detail's `lifecycle` and `history` from the host's engine object (none yet: null and []). */
export function machineLifecycle(
  object: ObjectStateView | undefined,
): Pick<MachineDetail, "lifecycle" | "history"> {
  if (!object) return { lifecycle: null, history: [] };
  const state = object.state as MachineLifecycleView["state"];
  const details = state.state === "failed" ? state.details : undefined;
  return {
    lifecycle: {
      stateLabel: stateLabelOf(object.state),
      state,
      enteredAt: object.enteredAt,
      timeInStateMs: object.timeInStateMs,
      sla: object.sla,
      outcome: object.outcome,
      failure: details && typeof details === "object" ? (details as Record<string, unknown>) : null,
    },
    history: object.history.map((entry) => ({
      state: entry.state.state,
      label: stateLabelOf(entry.state),
      version: entry.version,
      enteredAt: entry.enteredAt,
      slaMs: entry.slaMs,
      exitOutcome: entry.exitOutcome,
    })),
  };
}
