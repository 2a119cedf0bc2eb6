import type { ValidationResult, ValidationTestResult } from "@racksmith/core";
import { doNothing, transition, wait } from "@racksmith/core/engine";
import type { HostOutcome, Step } from "../machine/step.js";
import type { ManagedHostState } from "../states.js";
import { errorMessage } from "./errorMessage.js";

type State = Extract<ManagedHostState, { state: "validation" }>;

/**
 * Runs the configured validation runners (and, when configured, waits for the host agent's own tests);
 * with none configured the step passes straight through. Every test must pass, else the host is Failed.
 */
export async function handleValidation(step: Step, state: State): Promise<HostOutcome> {
  const runners = step.deps
    .validationRunners()
    .filter((r) => !r.contexts || r.contexts.includes(state.context));
  const results: ValidationTestResult[] = [];
  const hostTests = await hostTestResults(step, state);
  if (hostTests.kind === "pending") return wait(hostTests.reason);
  results.push(...hostTests.results);
  if (step.config.hostAgentValidation) {
    const reports = step.snapshot.reports.get(step.host.id);
    if (!step.since(reports?.validation_completed_at)) {
      return wait(`waiting for the host agent to run the ${state.context} validation`);
    }
    results.push(...prefixed("host-agent", reports?.validation_result));
  }
  for (const runner of runners) {
    try {
      const run = await runner.run({
        machineId: step.host.id,
        context: state.context,
        inventory: step.snapshot.reports.get(step.host.id)?.inventory ?? null,
        signal: step.context.signal,
      });
      results.push(...run.results.map((r) => ({ ...r, name: `${runner.name}/${r.name}` })));
      if (!run.passed && !run.results.some((r) => !r.passed)) {
        results.push({
          name: runner.name,
          passed: false,
          message: "the runner failed the host",
          durationMs: 0,
        });
      }
    } catch (error) {
      results.push({ name: runner.name, passed: false, message: errorMessage(error), durationMs: 0 });
    }
  }
  const failed = results.filter((r) => !r.passed);
  // An on-demand run only informs: its results and the host's health say how it went; the host stays Ready.
  if (state.context === "onDemand") return transition({ state: "ready" });
  if (failed.length > 0) {
    return step.fail(
      "validation",
      "stateMachine/validation",
      `${state.context} validation failed: ${failed.map((r) => `${r.name}: ${r.message}`).join("; ")}`,
    );
  }
  return transition({ state: "discovered", skipRebootWait: false });
}

/**
 * The host agent's run of the plugin's host tests for this validation (made on the first run of the state):
 * pending until the agent reports, then one result per test named by its id, and one for the tests that could
 * not be scheduled. None without host test rules, or when no test applies.
 */
async function hostTestResults(
  step: Step,
  state: State,
): Promise<{ kind: "pending"; reason: string } | { kind: "done"; results: ValidationTestResult[] }> {
  const runs = step.deps.hostTestRuns?.();
  const run = runs
    ? await runs.ensureRun({
        hostId: step.host.id,
        context: state.context,
        since: step.enteredAt,
        inventory: step.snapshot.reports.get(step.host.id)?.inventory ?? null,
      })
    : null;
  if (!run) return { kind: "done", results: [] };
  if (run.status === "pending") {
    return {
      kind: "pending",
      reason: `waiting for the host agent to run ${run.tests} validation test(s) (run ${run.runId})`,
    };
  }
  const notRun = run.unschedulable.map((u) => `${u.testId}: ${u.reason}`);
  return {
    kind: "done",
    results: [
      ...run.result.results,
      ...(notRun.length
        ? [
            {
              name: `run ${run.runId}`,
              passed: false,
              message: `not every test ran (${notRun.join("; ")})`,
              durationMs: 0,
            },
          ]
        : []),
    ],
  };
}

/** Ready: an operator's on-demand run of host tests takes the host into `validation/onDemand`. */
export async function validateOnDemand(step: Step): Promise<HostOutcome> {
  const runs = step.deps.hostTestRuns?.();
  if (!runs || !(await runs.onDemandRequested(step.host.id))) return doNothing();
  return transition({ state: "validation", context: "onDemand" });
}

function prefixed(runBy: string, result: ValidationResult | null | undefined): ValidationTestResult[] {
  if (!result) return [{ name: runBy, passed: false, message: "no result", durationMs: 0 }];
  const tests = result.results.map((r) => ({ ...r, name: `${runBy}/${r.name}` }));
  return result.passed || tests.some((t) => !t.passed)
    ? tests
    : [...tests, { name: runBy, passed: false, message: "reported as failed", durationMs: 0 }];
}
