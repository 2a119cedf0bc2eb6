import type { Fleet, VirtualBmc } from "@racksmith/simulator";
import type { FaultDecision } from "@racksmith/testkit";

/**
 * What a faulted BMC request gets:
 * - `timeout`: the answer comes after `timeoutLatencyMs` (set it above the service's request timeout) — the
 *   BMC still carries the request out, as a real one does when its client gave up;
 * - `serverError`: HTTP 500, 502 or 503 with a Redfish error body, the request not carried out;
 * - `reset`: the connection is destroyed without an answer;
 * - `truncated`: HTTP 200 with truncated JSON (GETs only: a truncated answer to an action would claim an
 *   action the BMC never ran);
 * - `expiredSession`: every session of the BMC is invalidated, then the request goes on (its token, if it
 *   used one, now answers 401 and the client must log in again).
 */
export const BMC_FAULT_KINDS = ["timeout", "serverError", "reset", "truncated", "expiredSession"] as const;
export type BmcFaultKind = (typeof BMC_FAULT_KINDS)[number];

export interface RandomBmcFaultOptions {
  /** Share of requests faulted, 0..1. */
  readonly rate: number;
  readonly timeoutLatencyMs: number;
  readonly random: () => number;
}

export interface RandomBmcFaults {
  /** Requests seen, and faults injected per kind. */
  stats(): { requests: number; faulted: number } & Record<BmcFaultKind, number>;
  /** Stops injecting (the wrapped fleet answers normally again). */
  stop(): void;
}

const SERVER_ERRORS = [500, 502, 503] as const;

/**
 * Faults a share of every virtual BMC's requests at random, through the fleet's own fault injection (each
 * BMC's `takeFault`, which the fleet's listener asks before it answers): the fleet's planned faults (its
 * anomalies) still come first.
 */
export function injectRandomBmcFaults(fleet: Fleet, options: RandomBmcFaultOptions): RandomBmcFaults {
  const counts = Object.fromEntries(BMC_FAULT_KINDS.map((kind) => [kind, 0])) as Record<BmcFaultKind, number>;
  let requests = 0;
  let active = true;
  const restore: Array<() => void> = [];
  for (const bmc of fleet.bmcs) {
    const planned = bmc.takeFault.bind(bmc);
    bmc.takeFault = (method: string, path: string): FaultDecision | undefined => {
      const decision = planned(method, path);
      if (decision || !active) return decision;
      requests++;
      if (options.random() >= options.rate) return undefined;
      const candidates = BMC_FAULT_KINDS.filter((kind) => kind !== "truncated" || method === "GET");
      const kind = candidates[Math.floor(options.random() * candidates.length)] ?? "reset";
      counts[kind]++;
      return faultOf(kind, bmc, path, options);
    };
    restore.push(() => {
      bmc.takeFault = planned;
    });
  }
  return {
    stats: () => ({
      requests,
      faulted: BMC_FAULT_KINDS.reduce((sum, kind) => sum + counts[kind], 0),
      ...counts,
    }),
    stop: () => {
      active = false;
      for (const undo of restore) undo();
    },
  };
}

function faultOf(
  kind: BmcFaultKind,
  bmc: VirtualBmc,
  path: string,
  options: RandomBmcFaultOptions,
): FaultDecision | undefined {
  switch (kind) {
    case "timeout":
      return {
        rule: { path, latencyMs: options.timeoutLatencyMs },
        latencyMs: options.timeoutLatencyMs,
        outcome: undefined,
      };
    case "serverError": {
      const status = SERVER_ERRORS[Math.floor(options.random() * SERVER_ERRORS.length)] ?? 500;
      return { rule: { path, status }, latencyMs: 0, outcome: { kind: "status", status } };
    }
    case "reset":
      return { rule: { path, reset: true }, latencyMs: 0, outcome: { kind: "reset" } };
    case "truncated":
      return { rule: { path, malformed: true }, latencyMs: 0, outcome: { kind: "malformed" } };
    case "expiredSession":
      // Only a BMC already asked something has sessions; the expiry lands before this request is answered.
      if (bmc.created) void bmc.service().then((service) => service.expireSessions());
      return undefined;
  }
}
