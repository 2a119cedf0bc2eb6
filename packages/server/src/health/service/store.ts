import type { HealthReport } from "@racksmith/core/health";
import { sql, type Transaction } from "kysely";
import type { Database, RacksmithDatabase } from "../../db/index.js";
import { healthContentHash } from "../contentHash.js";
import type { HealthHistoryEntry } from "../history.js";
import { retainInAlertSince } from "../inAlertSince.js";
import { emptyHealthOverrides, type HealthOverrides } from "../overrides.js";
import "./tables.js";

type Tx = Transaction<RacksmithDatabase>;

/** Makes sure the machine has a machine_health row and locks it for the rest of the transaction. */
async function lockMachineHealth(tx: Tx, machineId: string, now: Date) {
  await tx
    .insertInto("machine_health")
    .values({ machine_id: machineId, updated_at: now })
    .onConflict((oc) => oc.column("machine_id").doNothing())
    .execute();
  return tx
    .selectFrom("machine_health")
    .selectAll()
    .where("machine_id", "=", machineId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/** Changes a machine's overrides under its row lock (concurrent API calls never lose one another's). */
export async function updateOverrides(
  database: Database,
  machineId: string,
  now: Date,
  change: (current: HealthOverrides) => HealthOverrides,
): Promise<HealthOverrides> {
  return database.db.transaction().execute(async (tx) => {
    const row = await lockMachineHealth(tx, machineId, now);
    const next = change(row.overrides ?? emptyHealthOverrides());
    await tx
      .updateTable("machine_health")
      .set({ overrides: JSON.stringify(next), updated_at: now })
      .where("machine_id", "=", machineId)
      .execute();
    return next;
  });
}

export async function readOverrides(database: Database, machineId: string): Promise<HealthOverrides> {
  const row = await database.db
    .selectFrom("machine_health")
    .select("overrides")
    .where("machine_id", "=", machineId)
    .executeTakeFirst();
  return row?.overrides ?? emptyHealthOverrides();
}

export interface StoredAggregate {
  report: HealthReport;
  /** The content differs from the previous aggregate (a history row was added). */
  changed: boolean;
}

/**
 * Stores a host's freshly derived aggregate: alerts that persist keep the `inAlertSince` of the previous
 * aggregate, and a history row is appended when the content hash changed, the oldest dropped beyond
 * `historyLimit`. Under the row lock, so two replicas computing at once add one row, not two.
 */
export async function storeAggregate(
  database: Database,
  hostId: string,
  derived: HealthReport,
  now: Date,
  historyLimit: number,
): Promise<StoredAggregate> {
  // The content hash leaves `inAlertSince` out, so it is the same before and after retaining those times.
  const hash = healthContentHash(derived);
  const unchanged = await touchAggregate(database, hostId, hash, derived.observedAt, now);
  if (unchanged) return { report: unchanged, changed: false };
  return database.db.transaction().execute(async (tx) => {
    const row = await lockMachineHealth(tx, hostId, now);
    const report = retainInAlertSince(derived, row.aggregate ?? undefined, now);
    const changed = hash !== row.aggregate_hash;
    await tx
      .updateTable("machine_health")
      .set({ aggregate: JSON.stringify(report), aggregate_hash: hash, updated_at: now })
      .where("machine_id", "=", hostId)
      .execute();
    if (changed) {
      await tx
        .insertInto("health_history")
        .values({ machine_id: hostId, report: JSON.stringify(report), report_hash: hash, recorded_at: now })
        .execute();
      await sql`DELETE FROM health_history WHERE machine_id = ${hostId} AND id NOT IN (
          SELECT id FROM health_history WHERE machine_id = ${hostId} ORDER BY id DESC LIMIT ${historyLimit})`.execute(
        tx,
      );
    }
    return { report, changed };
  });
}

/**
 * The common case of `storeAggregate` in one statement: the stored aggregate already says what `hash` says (a
 * content hash leaves `observedAt` and `inAlertSince` out, so every alert kept its time), and only its
 * `observedAt` moves. Answers the stored aggregate, or undefined when its content differs (or there is none).
 */
async function touchAggregate(
  database: Database,
  hostId: string,
  hash: string,
  observedAt: string | undefined,
  now: Date,
): Promise<HealthReport | undefined> {
  const row = await database.db
    .updateTable("machine_health")
    .set({ aggregate: withObservedAtSql("aggregate", observedAt), updated_at: now })
    .where("machine_id", "=", hostId)
    .where("aggregate_hash", "=", hash)
    .returning("aggregate")
    .executeTakeFirst();
  return row?.aggregate ?? undefined;
}

/** A jsonb report column with its `observedAt` replaced (removed when the new report has none). */
function withObservedAtSql(column: "aggregate" | "report", observedAt: string | undefined) {
  const ref = sql.ref(column);
  return observedAt === undefined
    ? sql<string>`${ref} - 'observedAt'`
    : sql<string>`jsonb_set(${ref}, '{observedAt}', to_jsonb(${observedAt}::text))`;
}

/**
 * Stores again a report whose content is that of the one this process stored for the machine and source at
 * `storedAt` (a refresh): only its `observedAt` and time move, alerts keeping their `inAlertSince`. Guarded by
 * that time, so a report another replica stored since is never overwritten; false when the row is not the one
 * stored then (the caller stores the report in full).
 */
export async function refreshReport(
  database: Database,
  machineId: string,
  report: HealthReport,
  storedAt: Date,
  now: Date,
): Promise<boolean> {
  const result = await database.db
    .updateTable("health_reports")
    .set({ report: withObservedAtSql("report", report.observedAt), updated_at: now })
    .where("machine_id", "=", machineId)
    .where("source", "=", report.source)
    .where("updated_at", "=", storedAt)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A host's health history, newest first. */
export async function readHistory(
  database: Database,
  hostId: string,
  limit: number,
): Promise<HealthHistoryEntry[]> {
  const rows = await database.db
    .selectFrom("health_history")
    .select(["report", "report_hash", "recorded_at"])
    .where("machine_id", "=", hostId)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    at: row.recorded_at.toISOString(),
    hash: row.report_hash,
    report: row.report,
  }));
}

/** Upserts a source's latest report about a machine. */
export async function upsertReport(
  database: Database,
  machineId: string,
  report: HealthReport,
  now: Date,
): Promise<void> {
  await database.db.transaction().execute(async (tx) => {
    const previous = await tx
      .selectFrom("health_reports")
      .select("report")
      .where("machine_id", "=", machineId)
      .where("source", "=", report.source)
      .forUpdate()
      .executeTakeFirst();
    // An alert that persists across submissions keeps the time it was first raised.
    const stamped = retainInAlertSince(report, previous?.report, now);
    const value = JSON.stringify(stamped);
    await tx
      .insertInto("health_reports")
      .values({ machine_id: machineId, source: report.source, report: value, updated_at: now })
      .onConflict((oc) =>
        oc.columns(["machine_id", "source"]).doUpdateSet({ report: value, updated_at: now }),
      )
      .execute();
  });
}
