import { createHash } from "node:crypto";
import type { HealthReport } from "@racksmith/core/health";
import { compareProbeKeys, sortedSet } from "@racksmith/core/health";

/**
 * A hash of what a report says, not when: `observedAt` and `inAlertSince` are left out and entries are
 * sorted, so a resubmission of the same findings hashes the same and adds no health-history row.
 */
export function healthContentHash(report: HealthReport): string {
  const content = {
    source: report.source,
    triggeredBy: report.triggeredBy ?? null,
    successes: [...report.successes]
      .sort(compareProbeKeys)
      .map((success) => [success.id, success.target ?? null]),
    alerts: [...report.alerts]
      .sort(compareProbeKeys)
      .map((alert) => [
        alert.id,
        alert.target ?? null,
        alert.message,
        alert.tenantMessage ?? null,
        sortedSet(alert.classifications),
      ]),
  };
  return createHash("sha256").update(JSON.stringify(content)).digest("hex");
}
