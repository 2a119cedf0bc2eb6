import type { RebootRequest } from "../tables.js";

export interface RebootPolicy {
  /** Wait before the first retry while a wait does not progress. */
  failureRetryTimeMs: number;
  /** Each retry waits this many times longer than the one before (1: a fixed period, NICo's behaviour). */
  rebootBackoffFactor: number;
  /** The longest wait between two retries. */
  maxRebootIntervalMs: number;
  /** Cycles before giving up (manual intervention). */
  maxRebootCycles: number;
  /** Every Nth cycle powers off (then on after `powerDownWaitMs`) instead of restarting. */
  powerOffEveryNthCycle: number;
  powerDownWaitMs: number;
}

export interface RebootInput {
  now: Date;
  /** When the waiting state was entered. */
  enteredAt: Date;
  /** The last reboot the lifecycle asked this machine for (any state). */
  lastRequest: RebootRequest | null;
  policy: RebootPolicy;
  /** Reboot at once on the first run in the state (the wait is for the boot this causes). */
  kick: boolean;
  /** The machine is a DPU: it restarts only (no power cycles of its own). */
  dpu: boolean;
  /** StopRebootForAutomaticRecoveryFromStateMachine is set on the host. */
  suppressed: boolean;
  /** Since when this service has run: nothing could be reported before, so a deadline counts from there. */
  serviceUpSince: Date;
  /** Time the service was overloaded between two instants: retry timers stand still meanwhile. */
  pausedMs(from: Date, to: Date): number;
  /** Why the service is overloaded now, or null: a retry never fires while it is. */
  overloaded: string | null;
}

/** `required`: the reboot a state asks for on entry; `retry`: one a wait orders for lack of progress. */
export type RebootKind = "required" | "retry" | "powerOn";

export type RebootDecision =
  | { kind: "none"; reason: string }
  | { kind: "reboot"; action: RebootRequest["action"]; cycle: number; reason: RebootKind }
  | { kind: "giveUp"; reason: string };

/**
 * NICo's reboot/backoff helper as a pure decision, hardened against load: while a wait does not progress,
 * retry with a growing interval (`failureRetryTimeMs` × `rebootBackoffFactor`^(cycle−1), at most
 * `maxRebootIntervalMs`), power off and on instead on every Nth cycle, give up after `maxRebootCycles`.
 * Cycles are counted from the requests made since the state was entered, never from elapsed time, so a
 * handler that runs late cannot skip cycles. A deadline counts from the later of the last request and the
 * service's start, and stands still while the service is overloaded: late reports never cause reboots.
 */
export function decideReboot(input: RebootInput): RebootDecision {
  const { now, enteredAt, policy } = input;
  if (input.suppressed) {
    return { kind: "none", reason: "automatic reboots are suppressed by a health alert" };
  }
  const last =
    input.lastRequest && Date.parse(input.lastRequest.at) >= enteredAt.getTime() ? input.lastRequest : null;
  // A request without a cycle was a state's own power action: the wait's cycles start after it.
  const lastCycle = last ? (last.cycle ?? 0) : null;
  if (last?.action === "ForceOff") {
    // The host is off: powering it on again completes a cycle already decided, whatever the load.
    const onAt = Date.parse(last.at) + policy.powerDownWaitMs;
    return now.getTime() >= onAt
      ? { kind: "reboot", action: "On", cycle: lastCycle ?? 0, reason: "powerOn" }
      : { kind: "none", reason: `powered off for a power cycle; on again at ${iso(onAt)}` };
  }
  if (!last && input.kick) return { kind: "reboot", action: "ForceRestart", cycle: 0, reason: "required" };
  const cycle = lastCycle === null ? 1 : lastCycle + 1;
  const from = Math.max(last ? Date.parse(last.at) : enteredAt.getTime(), input.serviceUpSince.getTime());
  const paused = input.pausedMs(new Date(from), now);
  const dueAt = from + retryIntervalMs(policy, cycle) + paused;
  if (now.getTime() < dueAt) {
    const pause =
      paused > 0 ? ` (timer paused ${Math.round(paused / 1000)} s while the service was overloaded)` : "";
    return { kind: "none", reason: `next reboot at ${iso(dueAt)}${pause}` };
  }
  // Neither a retry nor giving up may follow from reports the service was too slow to take.
  if (input.overloaded !== null) {
    return {
      kind: "none",
      reason: `reboot due, paused while the service is overloaded (${input.overloaded})`,
    };
  }
  if (cycle >= policy.maxRebootCycles) {
    return { kind: "giveUp", reason: `no progress after ${policy.maxRebootCycles} reboot cycles` };
  }
  const powerCycle = !input.dpu && cycle % policy.powerOffEveryNthCycle === 0;
  return { kind: "reboot", action: powerCycle ? "ForceOff" : "ForceRestart", cycle, reason: "retry" };
}

/** How long a wait gives cycle `cycle` (≥ 1) before it reboots: exponential, capped. */
export function retryIntervalMs(policy: RebootPolicy, cycle: number): number {
  const base = Math.max(policy.failureRetryTimeMs, 1_000);
  const grown = base * policy.rebootBackoffFactor ** Math.max(cycle - 1, 0);
  return Math.min(grown, Math.max(policy.maxRebootIntervalMs, base));
}

const iso = (ms: number) => new Date(ms).toISOString();
