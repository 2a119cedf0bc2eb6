import type { ValidationResult, ValidationTestResult } from "@racksmith/core";
import { transition, wait } from "@racksmith/core/engine";
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
  if (failed.length > 0) {
    return step.fail(
      "validation",
      "stateMachine/validation",
      `${state.context} validation failed: ${failed.map((r) => `${r.name}: ${r.message}`).join("; ")}`,
    );
  }
  return transition({ state: "discovered", skipRebootWait: false });
}

function prefixed(runBy: string, result: ValidationResult | null | undefined): ValidationTestResult[] {
  if (!result) return [{ name: runBy, passed: false, message: "no result", durationMs: 0 }];
  const tests = result.results.map((r) => ({ ...r, name: `${runBy}/${r.name}` }));
  return result.passed || tests.some((t) => !t.passed)
    ? tests
    : [...tests, { name: runBy, passed: false, message: "reported as failed", durationMs: 0 }];
}
