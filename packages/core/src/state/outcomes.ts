import type { Outcome, TaggedState } from "./types.js";

/** Move to `next`; the object runs again at once in its new state. */
export function transition<S extends TaggedState>(next: S): Outcome<S> {
  return { kind: "transition", next };
}

/**
 * Blocked on something outside (a BMC job, an agent report); re-run on enqueue, or after `recheckAfterMs`
 * (default the engine's `waitRecheckMs`; 0 or none: at the next periodic run).
 */
export function wait(reason: string, options: { recheckAfterMs?: number } = {}): Outcome<never> {
  return options.recheckAfterMs === undefined
    ? { kind: "wait", reason }
    : { kind: "wait", reason, recheckAfterMs: options.recheckAfterMs };
}

/** Nothing to do in this state (a steady state such as Ready). */
export function doNothing(): Outcome<never> {
  return { kind: "doNothing" };
}

/** The object is finished: its state, history and queue entry are removed in the final transaction. */
export function deleted(): Outcome<never> {
  return { kind: "deleted" };
}
