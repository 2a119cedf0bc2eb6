import type { HostTestOutcome, HostTestRules, Logger, ValidationResult } from "@racksmith/core";
import type { HostTestRunStatus, HostTestRuns } from "../lifecycle/index.js";
import { ValidationRunNotFoundError } from "./errors.js";
import type { MachineValidationStore, ResultRow, RunRow } from "./store.js";

/** Who the lifecycle's validation results name for host tests. */
export const HOST_TESTS_RUNNER = "host-tests";

/** The longest excerpt of a test's output kept (its end: where tools say what went wrong). */
export const MAX_OUTPUT_EXCERPT = 4096;

export interface HostTestRunsDeps {
  store: MachineValidationStore;
  rules: HostTestRules;
  clock: () => Date;
  logger: Logger;
}

/** The lifecycle's host tests over the catalogue and runs of the store, judged by the plugin's rules. */
export function createHostTestRuns(deps: HostTestRunsDeps): HostTestRuns {
  const { store, rules } = deps;
  const statusOf = async (run: RunRow): Promise<HostTestRunStatus> =>
    run.completed_at === null
      ? { runId: run.id, status: "pending", tests: run.tests.length }
      : {
          runId: run.id,
          status: "completed",
          result: validationResultOf(run, await store.results([run.id])),
          unschedulable: run.unschedulable,
        };
  return {
    async ensureRun({ hostId, context, since, inventory }) {
      const current = await store.currentRun(hostId, context, since);
      if (current) return statusOf(current);
      const facts = await store.hostFacts(hostId);
      const selection = rules.select(await store.tests(), {
        context,
        platform: (inventory ?? facts.inventory)?.model ?? "",
        skuId: facts.skuId,
      });
      if (selection.tests.length === 0 && selection.unschedulable.length === 0) return null;
      const run = await store.createRun({
        machineId: hostId,
        context,
        requestedBy: "lifecycle",
        tests: selection.tests,
        unschedulable: selection.unschedulable,
        now: deps.clock(),
      });
      deps.logger.info({ hostId, runId: run.id, context, tests: run.tests.length }, "validation run created");
      return statusOf(run);
    },

    async pendingRun(hostId) {
      const run = await store.pendingRun(hostId);
      return run ? { runId: run.id, context: run.context, tests: run.tests } : null;
    },

    async recordOutcomes(hostId, runId, outcomes) {
      const run = await store.run(runId);
      if (!run || run.machine_id !== hostId) throw new ValidationRunNotFoundError(runId);
      if (run.completed_at === null) {
        const now = deps.clock();
        const unschedulable = [...run.unschedulable];
        const results: Array<Omit<ResultRow, "run_id">> = [];
        for (const test of run.tests) {
          const outcome = outcomes.find((o) => o.testId === test.id);
          if (!outcome) {
            unschedulable.push({ testId: test.id, reason: "the host agent reported no outcome" });
            continue;
          }
          results.push(resultRow(outcome, rules.judge(test, outcome), now));
        }
        const passed = unschedulable.length === 0 && results.every((result) => result.passed);
        await store.completeRun(runId, results, { passed, unschedulable }, now);
      }
      const status = await statusOf((await store.run(runId)) ?? run);
      if (status.status !== "completed") throw new Error(`validation run ${runId} did not complete`);
      return status.result;
    },

    async onDemandRequested(hostId) {
      return (await store.pendingRun(hostId, "operator")) !== undefined;
    },
  };
}

function resultRow(
  outcome: HostTestOutcome,
  verdict: { passed: boolean; message: string },
  now: Date,
): Omit<ResultRow, "run_id"> {
  return {
    test_id: outcome.testId,
    exit_code: outcome.exitCode,
    stdout: outcome.stdout.slice(-MAX_OUTPUT_EXCERPT),
    stderr: outcome.stderr.slice(-MAX_OUTPUT_EXCERPT),
    started_at: dateOr(outcome.startedAt, now),
    ended_at: dateOr(outcome.endedAt, now),
    timed_out: outcome.timedOut,
    passed: verdict.passed,
    message: verdict.message,
  };
}

function dateOr(iso: string, fallback: Date): Date {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? fallback : at;
}

/** A completed run as the host's validation result (tests named by id, so alerts name the test). */
export function validationResultOf(run: RunRow, results: readonly ResultRow[]): ValidationResult {
  return {
    context: run.context,
    passed: run.passed === true,
    runBy: HOST_TESTS_RUNNER,
    results: results.map((result) => ({
      name: result.test_id,
      passed: result.passed,
      message: result.message,
      durationMs: Math.max(0, result.ended_at.getTime() - result.started_at.getTime()),
    })),
  };
}
