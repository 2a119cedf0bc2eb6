import { InvalidArgumentError, NotSupportedError, type PasswordPolicy } from "@racksmith/core";

/**
 * iLO never locks an account: it delays logins after failures. "No lockout" (threshold 0) becomes NICo's iLO
 * machine policy: the shortest delay, no failure logging threshold, no complexity rule.
 */
export const NO_LOCKOUT_LOGIN_POLICY: Readonly<Record<string, number | boolean>> = {
  AuthFailureDelayTimeSeconds: 2,
  AuthFailureLoggingThreshold: 0,
  AuthFailuresBeforeDelay: 0,
  EnforcePasswordComplexity: false,
};

/** Values iLO accepts for the login delay and for the failures allowed before it. */
const DELAY_SECONDS = [2, 5, 10, 30];
const FAILURES_BEFORE_DELAY = [1, 3, 5];

function oneOf(value: number, allowed: readonly number[], field: string): number {
  if (!allowed.includes(value)) {
    throw new InvalidArgumentError(
      `${field} ${value} is not possible on iLO (allowed: ${allowed.join(", ")})`,
    );
  }
  return value;
}

/** The `AccountService` PATCH for a password policy: the standard length, the lockout through `Oem.Hpe`. */
export function accountServicePatch(policy: PasswordPolicy): Record<string, unknown> {
  if (policy.maxPasswordLength !== undefined) {
    throw new NotSupportedError(
      "password policy maxPasswordLength",
      "iLO's maximum password length is fixed",
    );
  }
  if (policy.lockoutCounterResetAfterSeconds) {
    throw new NotSupportedError(
      "password policy lockoutCounterResetAfterSeconds",
      "iLO delays logins after failures and keeps no failure-counter window",
    );
  }
  const hpe: Record<string, unknown> = {};
  if (policy.lockoutThreshold === 0) {
    Object.assign(hpe, NO_LOCKOUT_LOGIN_POLICY);
  } else {
    if (policy.lockoutThreshold !== undefined) {
      hpe.AuthFailuresBeforeDelay = oneOf(policy.lockoutThreshold, FAILURES_BEFORE_DELAY, "lockoutThreshold");
    }
    if (policy.lockoutDurationSeconds !== undefined) {
      // No delay at all is not possible: 0 maps to iLO's shortest.
      const seconds = policy.lockoutDurationSeconds === 0 ? 2 : policy.lockoutDurationSeconds;
      hpe.AuthFailureDelayTimeSeconds = oneOf(seconds, DELAY_SECONDS, "lockoutDurationSeconds");
    }
  }
  const patch: Record<string, unknown> = {
    ...(policy.minPasswordLength !== undefined ? { MinPasswordLength: policy.minPasswordLength } : {}),
    ...(Object.keys(hpe).length > 0 ? { Oem: { Hpe: hpe } } : {}),
  };
  if (Object.keys(patch).length === 0)
    throw new InvalidArgumentError("password policy has no setting to change");
  return patch;
}
