import { describe, expect, it } from "vitest";
import { afterLogins, loginAttemptsLeft, NO_AUTH_FAILURES } from "./lockout.js";

const POLICY = { maxAuthFailures: 3, windowMs: 60_000 };
const T0 = new Date("2026-01-01T00:00:00Z");
const later = (ms: number) => new Date(T0.getTime() + ms);

describe("lockout avoidance", () => {
  it("counts refused logins and leaves the BMC alone at the threshold until the window passes", () => {
    let failures = afterLogins(NO_AUTH_FAILURES, { failed: 2, succeeded: false }, T0, POLICY);
    expect(failures).toEqual({ count: 2, lastAt: T0 });
    expect(loginAttemptsLeft(failures, later(1_000), POLICY)).toBe(1);
    failures = afterLogins(failures, { failed: 1, succeeded: false }, later(1_000), POLICY);
    expect(loginAttemptsLeft(failures, later(30_000), POLICY)).toBe(0);
    expect(loginAttemptsLeft(failures, later(61_000), POLICY)).toBe(3);
  });

  it("forgets failures older than the window when new ones come", () => {
    const old = { count: 2, lastAt: T0 };
    expect(afterLogins(old, { failed: 1, succeeded: false }, later(120_000), POLICY)).toEqual({
      count: 1,
      lastAt: later(120_000),
    });
  });

  it("resets after a successful login, keeps the count when nothing was tried", () => {
    const some = { count: 2, lastAt: T0 };
    expect(afterLogins(some, { failed: 1, succeeded: true }, later(1), POLICY)).toEqual(NO_AUTH_FAILURES);
    expect(afterLogins(some, { failed: 0, succeeded: false }, later(1), POLICY)).toEqual(some);
  });
});
