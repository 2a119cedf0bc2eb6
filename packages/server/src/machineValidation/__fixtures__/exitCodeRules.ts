import type { HostTest, HostTestRules } from "@racksmith/core";
import { InvalidArgumentError } from "@racksmith/core";

/** A catalogue test with every field, for fixtures. */
export function hostTest(id: string, change: Partial<HostTest> = {}): HostTest {
  return {
    id,
    name: id,
    command: "true",
    args: [],
    timeoutMs: 60_000,
    version: "v1",
    enabled: true,
    verified: true,
    platforms: [],
    skus: [],
    contexts: ["discovery", "cleanup", "onDemand"],
    description: "",
    ...change,
  };
}

/**
 * Host test rules small enough to reason about: a test needs an id, a command and a timeout; a run takes the
 * enabled verified tests of its context (or exactly the ones named); exit 0 in time passes.
 */
export const exitCodeRules: HostTestRules = {
  name: "exit-code",
  builtInTests: [hostTest("builtin_Stress", { command: "stress-ng" })],
  parseTest(value) {
    const v = (value ?? {}) as Record<string, unknown>;
    for (const field of ["id", "command"]) {
      if (typeof v[field] !== "string" || v[field] === "")
        throw new InvalidArgumentError(`${field} must be a string`);
    }
    if (!Number.isInteger(v.timeoutMs)) throw new InvalidArgumentError("timeoutMs must be a whole number");
    const { id, command, timeoutMs, ...rest } = v as { id: string; command: string; timeoutMs: number };
    return hostTest(id, {
      ...(rest as Partial<HostTest>),
      command,
      timeoutMs,
      version: "v1",
      verified: false,
    });
  },
  select(catalogue, target) {
    if (!target.only) {
      return {
        tests: catalogue.filter((t) => t.enabled && t.verified && t.contexts.includes(target.context)),
        unschedulable: [],
      };
    }
    const tests = catalogue.filter((t) => target.only?.includes(t.id));
    const unschedulable = target.only
      .filter((id) => !tests.some((t) => t.id === id))
      .map((testId) => ({ testId, reason: "no test has this id" }));
    return { tests, unschedulable };
  },
  judge: (_test, outcome) =>
    outcome.timedOut
      ? { passed: false, message: "timed out" }
      : { passed: outcome.exitCode === 0, message: `exit code ${outcome.exitCode}` },
};
