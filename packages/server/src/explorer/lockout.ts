/** Consecutive failed logins to one BMC, and when the last one happened. */
export interface AuthFailures {
  count: number;
  lastAt: Date | undefined;
}

export interface LockoutPolicy {
  /** Failed logins after which the BMC is left alone. */
  maxAuthFailures: number;
  /** How long after the last failure the count is forgotten. */
  windowMs: number;
}

export const NO_AUTH_FAILURES: AuthFailures = Object.freeze({ count: 0, lastAt: undefined });

/** The count that still matters now: failures older than the window are forgotten. */
export function currentAuthFailures(failures: AuthFailures, now: Date, policy: LockoutPolicy): AuthFailures {
  const expired =
    failures.lastAt === undefined || now.getTime() - failures.lastAt.getTime() >= policy.windowMs;
  return expired ? NO_AUTH_FAILURES : failures;
}

/**
 * How many more logins may be tried now without reaching the BMC's lockout threshold (0: leave it alone —
 * `avoid_lockout` — until the window after the last failure has passed).
 */
export function loginAttemptsLeft(failures: AuthFailures, now: Date, policy: LockoutPolicy): number {
  return Math.max(0, policy.maxAuthFailures - currentAuthFailures(failures, now, policy).count);
}

/** The counters after an exploration: a successful login resets them, each refused one adds up. */
export function afterLogins(
  failures: AuthFailures,
  outcome: { failed: number; succeeded: boolean },
  now: Date,
  policy: LockoutPolicy,
): AuthFailures {
  if (outcome.succeeded) return NO_AUTH_FAILURES;
  const current = currentAuthFailures(failures, now, policy);
  if (outcome.failed === 0) return current;
  return { count: current.count + outcome.failed, lastAt: now };
}
