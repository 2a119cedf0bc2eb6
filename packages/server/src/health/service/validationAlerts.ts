import type { ValidationResult } from "@racksmith/core";
import {
  HEALTH_CLASSIFICATIONS,
  HEALTH_PROBE_IDS,
  HEALTH_SOURCES,
  type HealthProbeAlert,
  type HealthReport,
} from "@racksmith/core/health";

/**
 * The last validation result as a report (source `machine-validation`): a success per passed test, a
 * `FailedValidationTest` alert per failed one (target = the test), and `FailedValidationTestCompletion` when
 * the run failed without naming a failed test (it did not complete). Failed validation blocks allocation:
 * the host is not known to be fit for a tenant.
 */
export function validationReport(result: ValidationResult, completedAt: Date | null): HealthReport {
  const classifications = [HEALTH_CLASSIFICATIONS.preventAllocations];
  const where = `${result.context} validation by ${result.runBy}`;
  const failed = result.results.filter((test) => !test.passed);
  const alerts: HealthProbeAlert[] = failed.map((test) => ({
    id: HEALTH_PROBE_IDS.failedValidationTest,
    target: test.name,
    message: `${where}: test ${test.name} failed${test.message ? `: ${test.message}` : ""}`,
    classifications: [...classifications],
  }));
  if (!result.passed && failed.length === 0) {
    alerts.push({
      id: HEALTH_PROBE_IDS.failedValidationTestCompletion,
      target: result.runBy,
      message: `${where}: the run failed before its tests completed`,
      classifications: [...classifications],
    });
  }
  return {
    source: HEALTH_SOURCES.machineValidation,
    ...(completedAt ? { observedAt: completedAt.toISOString() } : {}),
    successes: result.results
      .filter((test) => test.passed)
      .map((test) => ({ id: HEALTH_PROBE_IDS.failedValidationTest, target: test.name })),
    alerts,
  };
}
