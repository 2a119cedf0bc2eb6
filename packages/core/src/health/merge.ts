import { compareProbeKeys, earliestTimestamp, probeKey } from "./probeKey.js";
import type { HealthProbeAlert, HealthProbeSuccess, HealthReport } from "./report.js";

export interface MergeHealthOptions {
  /** Source of the merged report (`aggregate-host-health`, …). */
  source: string;
}

/**
 * Merges reports by (probe id, target) — NICo's `HealthReport::merge`:
 * - an alert beats a success of the same key (a check that failed anywhere failed);
 * - alerts of the same key become one: classifications as a sorted set, messages and tenant messages joined
 *   by newline (an identical message is kept once, so merging a report with itself changes nothing), the
 *   earliest `inAlertSince`;
 * - `observedAt` is the earliest of the inputs (the merged view is only as fresh as its oldest part);
 * - successes and alerts are ordered by key, so equal inputs give equal outputs whatever their order.
 * `triggeredBy` is not carried over: the merged report was triggered by no one in particular.
 */
export function mergeHealthReports(
  reports: readonly HealthReport[],
  options: MergeHealthOptions,
): HealthReport {
  const alerts = new Map<string, HealthProbeAlert>();
  const successes = new Map<string, HealthProbeSuccess>();
  let observedAt: string | undefined;
  for (const report of reports) {
    observedAt = earliestTimestamp(observedAt, report.observedAt);
    for (const success of report.successes) successes.set(probeKey(success), copySuccess(success));
    for (const alert of report.alerts) {
      const key = probeKey(alert);
      const existing = alerts.get(key);
      alerts.set(key, existing ? combineAlerts(existing, alert) : copyAlert(alert));
    }
  }
  for (const key of alerts.keys()) successes.delete(key);
  return {
    source: options.source,
    ...(observedAt !== undefined ? { observedAt } : {}),
    successes: [...successes.values()].sort(compareProbeKeys),
    alerts: [...alerts.values()].sort(compareProbeKeys),
  };
}

function combineAlerts(into: HealthProbeAlert, next: HealthProbeAlert): HealthProbeAlert {
  const inAlertSince = earliestTimestamp(into.inAlertSince, next.inAlertSince);
  const tenantMessage = joinMessages(into.tenantMessage, next.tenantMessage);
  return {
    id: into.id,
    ...(into.target !== undefined ? { target: into.target } : {}),
    ...(inAlertSince !== undefined ? { inAlertSince } : {}),
    message: joinMessages(into.message, next.message) ?? "",
    ...(tenantMessage !== undefined ? { tenantMessage } : {}),
    classifications: sortedSet([...into.classifications, ...next.classifications]),
  };
}

function joinMessages(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined || a.split("\n").includes(b)) return a;
  return `${a}\n${b}`;
}

/** Classifications as a sorted set: duplicates and input order never change the result. */
export function sortedSet(values: readonly string[]): string[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function copySuccess(success: HealthProbeSuccess): HealthProbeSuccess {
  return { id: success.id, ...(success.target !== undefined ? { target: success.target } : {}) };
}

function copyAlert(alert: HealthProbeAlert): HealthProbeAlert {
  return { ...alert, classifications: sortedSet(alert.classifications) };
}
