import type { HealthReport } from "@racksmith/core/health";
import type { Kysely } from "kysely";
import type { RacksmithDatabase } from "../../db/index.js";

/** `health_reports` (migration 0005), typed here so the monitor needs no global schema entry. */
interface HealthReportsTable {
  machine_id: string;
  source: string;
  report: string;
  updated_at: Date;
}

/**
 * Stores a machine's latest report of one source (upsert on machine and source). For `racksmith monitor`
 * running without the service; inside the service the health service's `recordReport` does this.
 * A machine deleted meanwhile is skipped (nothing to report on).
 */
export function healthReportRecorder(
  database: Kysely<RacksmithDatabase>,
  clock: () => Date = () => new Date(),
): (machineId: string, report: HealthReport) => Promise<void> {
  const db = database.withTables<{ health_reports: HealthReportsTable }>();
  return async (machineId, report) => {
    const now = clock();
    const json = JSON.stringify(report);
    await db
      .insertInto("health_reports")
      .values({ machine_id: machineId, source: report.source, report: json, updated_at: now })
      .onConflict((oc) => oc.columns(["machine_id", "source"]).doUpdateSet({ report: json, updated_at: now }))
      .execute()
      .catch((error: unknown) => {
        // 23503: the machine row is gone (deleted during the pass).
        if ((error as { code?: unknown })?.code !== "23503") throw error;
      });
  };
}
