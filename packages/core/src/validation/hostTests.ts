import type { ValidationRunContext } from "./runner.js";

/**
 * A machine validation test the host agent runs (NICo's machine validation test case): a command with its
 * arguments, bounded by a timeout, in the contexts it is for, on the platforms and SKUs it fits.
 */
export interface HostTest {
  /** Unique, e.g. `racksmith_CpuStressShort`. */
  id: string;
  name: string;
  command: string;
  args: string[];
  /** The agent stops the test after this long and reports it timed out. */
  timeoutMs: number;
  /** Changes with every update, so results name the definition they ran. */
  version: string;
  /** Disabled tests never run. */
  enabled: boolean;
  /** Unverified tests (not yet tried on hardware) run only when an on-demand run names them. */
  verified: boolean;
  /** Chassis models it runs on (as the host agent reports them); empty: every model. */
  platforms: string[];
  /** SKU ids it runs on; empty: every host. */
  skus: string[];
  contexts: ValidationRunContext[];
  description: string;
}

/** What the host agent reports of one test it ran. */
export interface HostTestOutcome {
  testId: string;
  /** null when the test did not exit by itself (stopped at its timeout, killed). */
  exitCode: number | null;
  /** Excerpts (the agent sends the end of each stream). */
  stdout: string;
  stderr: string;
  startedAt: string;
  endedAt: string;
  timedOut: boolean;
}

/** What a host is when tests are chosen for it. */
export interface HostTestTarget {
  context: ValidationRunContext;
  /** The host's chassis model (host agent inventory); empty when unknown. */
  platform: string;
  skuId: string | null;
  /** On-demand only: the tests an operator named (they may be unverified); absent: the context's tests. */
  only?: readonly string[];
}

/** The tests of one run, and the ones asked for that cannot run, each with why. */
export interface HostTestSelection {
  tests: HostTest[];
  unschedulable: Array<{ testId: string; reason: string }>;
}

/**
 * The rules of machine validation tests, registered by a plugin: its built-in (read-only) tests, how a test
 * an operator adds is checked, which tests a host runs, and how an outcome is judged. The service keeps the
 * catalogue and the runs, hands the tests to the host agent and records what it reports; a site loads at most
 * one set.
 */
export interface HostTestRules {
  /** Unique, kebab-case. */
  readonly name: string;
  readonly description?: string;
  /** Written into the catalogue at start, read-only there. */
  readonly builtInTests: readonly HostTest[];
  /** A test from a request or file (`validation test add`), every field checked: InvalidArgumentError naming it. */
  parseTest(value: unknown): HostTest;
  select(catalogue: readonly HostTest[], target: HostTestTarget): HostTestSelection;
  judge(test: HostTest, outcome: HostTestOutcome): { passed: boolean; message: string };
}
