import type { HealthReport } from "@racksmith/core/health";
import { probeKey } from "@racksmith/core/health";

/**
 * Stamps `inAlertSince` on every alert of a newly submitted report (NICo's `update_in_alert_since`), so the
 * time an alert was first raised survives every resubmission while it persists:
 * - an alert whose key (probe id, target) was in the previous report keeps the previous timestamp;
 * - a new alert keeps the timestamp its sender gave, or gets `now`.
 * Pass no previous report to treat every alert as new (an override, a first report).
 */
export function retainInAlertSince(
  report: HealthReport,
  previous: HealthReport | undefined,
  now: Date,
): HealthReport {
  const since = new Map<string, string>();
  for (const alert of previous?.alerts ?? []) {
    if (alert.inAlertSince !== undefined) since.set(probeKey(alert), alert.inAlertSince);
  }
  const stamp = now.toISOString();
  return {
    ...report,
    alerts: report.alerts.map((alert) => ({
      ...alert,
      inAlertSince: since.get(probeKey(alert)) ?? alert.inAlertSince ?? stamp,
    })),
  };
}
