/** The site-wide limits on lifecycle reboots; 0 turns a limit off. */
export interface RebootCaps {
  maxRebootsPerMinute: number;
  maxRebootsInFlight: number;
  /** How long a reboot counts as in flight (a boot takes this long to show in the agent's reports). */
  rebootSettleMs: number;
}

const MINUTE = 60_000;

/**
 * Why one more reboot now would break a cap, or null when it may go. `recent` holds the times (ms) of the
 * reboots ordered so far, oldest first; only the last minute and the settle window matter.
 */
export function rebootCapHolds(recent: readonly number[], now: number, caps: RebootCaps): string | null {
  const since = (windowMs: number) => recent.filter((at) => at > now - windowMs).length;
  if (caps.maxRebootsPerMinute > 0 && since(MINUTE) >= caps.maxRebootsPerMinute) {
    return `site-wide cap of ${caps.maxRebootsPerMinute} reboots per minute reached`;
  }
  if (caps.maxRebootsInFlight > 0 && since(caps.rebootSettleMs) >= caps.maxRebootsInFlight) {
    return `site-wide cap of ${caps.maxRebootsInFlight} reboots in flight reached`;
  }
  return null;
}

/** The reboot times still inside a window a cap looks at (the rest can be forgotten). */
export function pruneRebootTimes(recent: readonly number[], now: number, caps: RebootCaps): number[] {
  const keep = Math.max(MINUTE, caps.rebootSettleMs);
  return recent.filter((at) => at > now - keep);
}
