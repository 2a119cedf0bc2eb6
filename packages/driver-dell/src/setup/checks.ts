import type { SettingDiff, TriStateStatus } from "@racksmith/core";
import type { BiosValue } from "@racksmith/core/redfish";

export type AttributeValues = Readonly<Record<string, string>>;
export type AttributeMap = Readonly<Record<string, BiosValue>>;

/**
 * One setting a status looks at: the values that count as on, and those that count as off. Without `off`,
 * any value counts as off (a baud rate matters for "enabled" only).
 */
export interface SettingCheck {
  readonly key: string;
  readonly actual: string | undefined;
  readonly on: readonly string[];
  readonly off?: readonly string[];
}

/** An attribute a setup leaves behind: the values that count as done (the first one is what it writes). */
export interface Expectation {
  readonly key: string;
  readonly accepted: readonly string[];
}

/** The value as the iDRAC shows it in a message, or undefined when the attribute is absent or null. */
export function textOf(value: BiosValue | undefined): string | undefined {
  return value === undefined || value === null ? undefined : String(value);
}

/** enabled when every check is on, disabled when every check is off, partial otherwise; lists what it saw. */
export function evaluateChecks(checks: readonly SettingCheck[]): TriStateStatus {
  const isOn = (check: SettingCheck): boolean =>
    check.actual !== undefined && check.on.includes(check.actual);
  const isOff = (check: SettingCheck): boolean =>
    check.off === undefined || (check.actual !== undefined && check.off.includes(check.actual));
  const state = checks.every(isOn) ? "enabled" : checks.every(isOff) ? "disabled" : "partial";
  return { state, message: checks.map((c) => `${c.key}=${c.actual ?? "(missing)"}`).join(", ") };
}

export function expectationsOf(values: AttributeMap): Expectation[] {
  return Object.entries(values).map(([key, value]) => ({ key, accepted: [String(value)] }));
}

/** Expected-vs-actual for every expectation the attributes do not meet. */
export function expectationDiffs(expectations: readonly Expectation[], actual: AttributeMap): SettingDiff[] {
  return expectations.flatMap(({ key, accepted }) => {
    const value = textOf(actual[key]);
    return value !== undefined && accepted.includes(value)
      ? []
      : [{ key, expected: accepted.join(" or "), actual: value ?? "(missing)" }];
  });
}

/** The wanted attributes whose current value differs. */
export function differing<T extends AttributeMap>(wanted: T, current: AttributeMap): Partial<T> {
  return Object.fromEntries(
    Object.entries(wanted).filter(([key, value]) => textOf(current[key]) !== String(value)),
  ) as Partial<T>;
}
