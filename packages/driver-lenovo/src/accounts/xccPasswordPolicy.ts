import { InvalidArgumentError, type PasswordPolicy } from "@racksmith/core";
import type { RedfishObject } from "@racksmith/core/redfish";

/** XCC refuses lockout durations below one minute. */
export const XCC_MIN_LOCKOUT_SECONDS = 60;

/** Machine accounts must never expire nor be forced to change (libredfish's Lenovo policy). */
export const XCC_PASSWORDS_NEVER_EXPIRE: Readonly<RedfishObject> = {
  PasswordExpirationPeriodDays: 0,
  PasswordChangeOnFirstAccess: false,
  MinimumPasswordChangeIntervalHours: 0,
  MinimumPasswordReuseCycle: 0,
  PasswordExpirationWarningPeriod: 0,
};

function atLeastXccMinimum(seconds: number | undefined): number | undefined {
  return seconds === undefined ? undefined : Math.max(seconds, XCC_MIN_LOCKOUT_SECONDS);
}

/** The AccountService PATCH for a policy: standard lockout fields (durations raised to XCC's minimum) + OEM expiry. */
export function xccPasswordPolicyPatch(policy: PasswordPolicy): RedfishObject {
  const standard: RedfishObject = {
    AccountLockoutThreshold: policy.lockoutThreshold,
    AccountLockoutDuration: atLeastXccMinimum(policy.lockoutDurationSeconds),
    AccountLockoutCounterResetAfter: atLeastXccMinimum(policy.lockoutCounterResetAfterSeconds),
    MinPasswordLength: policy.minPasswordLength,
    MaxPasswordLength: policy.maxPasswordLength,
  };
  const defined = Object.fromEntries(Object.entries(standard).filter(([, value]) => value !== undefined));
  if (Object.keys(defined).length === 0)
    throw new InvalidArgumentError("password policy has no setting to change");
  return { ...defined, Oem: { Lenovo: { ...XCC_PASSWORDS_NEVER_EXPIRE } } };
}
