import { InvalidArgumentError } from "@racksmith/core";
import type { MockupState } from "./mockupState.js";

/** Locks an account after `threshold` failed logins in a row, as BMCs do (off unless configured). */
export interface MockupLockoutPolicy {
  /** Failed logins in a row (wrong password for an existing user) that lock the account. */
  readonly threshold: number;
  /** How long the account stays locked; default 300,000 ms. */
  readonly durationMs?: number;
}

/** One time an account was locked, for tests to look at. */
export interface MockupLockoutRecord {
  readonly user: string;
  readonly at: Date;
}

export const DEFAULT_LOCKOUT_DURATION_MS = 300_000;

export function checkLockoutPolicy(policy: MockupLockoutPolicy | undefined): void {
  if (policy === undefined) return;
  if (!(Number.isInteger(policy.threshold) && policy.threshold > 0)) {
    throw new InvalidArgumentError(`lockout.threshold must be a positive integer, got ${policy.threshold}`);
  }
  const duration = policy.durationMs ?? DEFAULT_LOCKOUT_DURATION_MS;
  if (!(Number.isFinite(duration) && duration >= 0)) {
    throw new InvalidArgumentError(`lockout.durationMs must be a non-negative number, got ${duration}`);
  }
}

/** True while `user` is locked out; unlike {@link admitLogin} it changes nothing. */
export function isLockedOut(
  state: MockupState,
  policy: MockupLockoutPolicy | undefined,
  user: string,
): boolean {
  const lockedUntil = policy ? state.lockedUntil.get(user) : undefined;
  return lockedUntil !== undefined && state.now() < lockedUntil;
}

/**
 * Applies the policy to one login of an existing user: true when it is let in. A locked account is refused
 * even with the right password (and the refusal does not extend the lock); a success clears the count.
 */
export function admitLogin(
  state: MockupState,
  policy: MockupLockoutPolicy | undefined,
  user: string,
  passwordMatches: boolean,
): boolean {
  if (!policy) return passwordMatches;
  const now = state.now();
  const lockedUntil = state.lockedUntil.get(user);
  if (lockedUntil !== undefined) {
    if (now < lockedUntil) return false;
    state.lockedUntil.delete(user);
  }
  if (passwordMatches) {
    state.loginFailures.delete(user);
    return true;
  }
  const failures = (state.loginFailures.get(user) ?? 0) + 1;
  if (failures < policy.threshold) {
    state.loginFailures.set(user, failures);
    return false;
  }
  state.loginFailures.delete(user);
  state.lockedUntil.set(user, now + (policy.durationMs ?? DEFAULT_LOCKOUT_DURATION_MS));
  state.lockouts.push({ user, at: new Date(now) });
  return false;
}
