import type { HostTest, HostTestOutcome, MachineInventory, ValidationResult } from "@racksmith/core";
import { createExtensionPoint } from "../../service/extensions.js";
import type { ValidationContext } from "../states.js";

/** A run of host tests as the lifecycle waits on it. */
export type HostTestRunStatus =
  | { runId: string; status: "pending"; tests: number }
  | {
      runId: string;
      status: "completed";
      result: ValidationResult;
      /** Tests asked for that did not run (unknown, did not fit the host, no outcome reported). */
      unschedulable: Array<{ testId: string; reason: string }>;
    };

/** The tests a host agent is handed (AgentControl `validation`). */
export interface PendingHostTestRun {
  runId: string;
  context: ValidationContext;
  tests: HostTest[];
}

/**
 * Machine validation tests run by the host agent, as the lifecycle's `validation` state and the agent API use
 * them; added by the machine validation feature when a plugin registers host test rules.
 */
export interface HostTestRuns {
  /**
   * The run of this validation: the host's run of `context` not completed yet, or one made since `since`;
   * else a new one of the tests that apply. Null when no test applies (validation goes on without).
   */
  ensureRun(request: {
    hostId: string;
    context: ValidationContext;
    since: Date;
    inventory: MachineInventory | null;
  }): Promise<HostTestRunStatus | null>;
  /** The host's run waiting for its agent (the oldest not completed), or null. */
  pendingRun(hostId: string): Promise<PendingHostTestRun | null>;
  /**
   * The agent's report of a run: each test judged and stored, the run completed (a test without an outcome
   * did not complete); returns the host's validation result. Reporting a completed run again changes nothing.
   */
  recordOutcomes(
    hostId: string,
    runId: string,
    outcomes: readonly HostTestOutcome[],
  ): Promise<ValidationResult>;
  /** Whether an operator's on-demand run waits for this Ready host. */
  onDemandRequested(hostId: string): Promise<boolean>;
}

export const HOST_TEST_RUNS = createExtensionPoint<HostTestRuns>("racksmith.lifecycle.hostTestRuns");
