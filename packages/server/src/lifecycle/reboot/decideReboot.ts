import type { RebootRequest } from "../tables.js";

export interface RebootPolicy {
  /** Period between reboots while a wait does not progress. */
  failureRetryTimeMs: number;
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
}

export type RebootDecision =
  | { kind: "none"; reason: string }
  | { kind: "reboot"; action: RebootRequest["action"]; cycle: number }
  | { kind: "giveUp"; reason: string };

/**
 * NICo's reboot/backoff helper as a pure decision: restart every `failureRetryTimeMs` while a wait does not
 * progress, power off and on instead on every Nth cycle, give up after `maxRebootCycles`. Only requests made
 * since the state was entered count.
 */
export function decideReboot(input: RebootInput): RebootDecision {
  const { now, enteredAt, policy } = input;
  if (input.suppressed) {
    return { kind: "none", reason: "automatic reboots are suppressed by a health alert" };
  }
  const last =
    input.lastRequest && Date.parse(input.lastRequest.at) >= enteredAt.getTime() ? input.lastRequest : null;
  const period = Math.max(policy.failureRetryTimeMs, 1_000);
  if (last?.action === "ForceOff") {
    const onAt = Date.parse(last.at) + policy.powerDownWaitMs;
    return now.getTime() >= onAt
      ? { kind: "reboot", action: "On", cycle: cycleOf(input, period) }
      : {
          kind: "none",
          reason: `powered off for a power cycle; on again at ${new Date(onAt).toISOString()}`,
        };
  }
  if (!last && input.kick) return { kind: "reboot", action: "ForceRestart", cycle: 0 };
  const dueAt = (last ? Date.parse(last.at) : enteredAt.getTime()) + period;
  if (now.getTime() < dueAt) {
    return { kind: "none", reason: `next reboot at ${new Date(dueAt).toISOString()}` };
  }
  const cycle = cycleOf(input, period);
  if (cycle >= policy.maxRebootCycles) {
    return { kind: "giveUp", reason: `no progress after ${policy.maxRebootCycles} reboot cycles` };
  }
  const powerCycle = !input.dpu && cycle > 0 && cycle % policy.powerOffEveryNthCycle === 0;
  return { kind: "reboot", action: powerCycle ? "ForceOff" : "ForceRestart", cycle };
}

function cycleOf(input: RebootInput, period: number): number {
  return Math.floor((input.now.getTime() - input.enteredAt.getTime()) / period);
}
