import type { HealthReport } from "@racksmith/core/health";
import { healthContentHash } from "./contentHash.js";

/** One row of a host's health history. */
export interface HealthHistoryEntry {
  at: string;
  hash: string;
  report: HealthReport;
}

/** NICo keeps 250 rows per machine. */
export const HEALTH_HISTORY_LIMIT = 250;

/**
 * Appends a report to a host's history (oldest first) unless it says the same as the latest entry, and
 * drops the oldest entries beyond `limit`. Returns the same array when nothing changed, so callers can skip
 * the write.
 */
export function appendHealthHistory(
  history: readonly HealthHistoryEntry[],
  report: HealthReport,
  at: Date,
  limit: number = HEALTH_HISTORY_LIMIT,
): readonly HealthHistoryEntry[] {
  const hash = healthContentHash(report);
  if (history.at(-1)?.hash === hash) return history;
  const next = [...history, { at: at.toISOString(), hash, report }];
  return next.length > limit ? next.slice(next.length - limit) : next;
}
