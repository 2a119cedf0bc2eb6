import { type Kysely, sql } from "kysely";
import type { EngineTables } from "./database.js";
import { type FinalWriteResult, HISTORY_TRIM_EVERY, type StateWrite } from "./finalWrite.js";
import type { Claim } from "./records.js";

/** One run's final write without deferred writes: a transition or an outcome, never a delete. */
export interface BatchedWrite {
  claim: Claim;
  expectedVersion: number;
  write: Exclude<StateWrite, { kind: "delete" }>;
  now: Date;
  /** As `writeFinal`'s: keep the claim for the next state's run, its lease renewed for this long (ms). */
  keepClaimMs?: number;
  /** As `writeFinal`'s: an outcome leaves the queue row due at this time instead of deleting it. */
  recheckAt?: Date;
}

/**
 * The final writes of several runs of one object type as ONE statement, each row exactly what `writeFinal`
 * does for it alone: lock its queue row if its claim still holds it, compare-and-set the object at its
 * expected version, on a transition close the left state's history row, append (and now and then trim)
 * history, then keep, requeue or remove the queue row. Rows are independent: one whose claim or version
 * moved changes nothing and the others are written. The input is one jsonb parameter, so the text is the
 * same for any number of rows (prepared once).
 */
export async function writeFinalBatch(
  db: Kysely<EngineTables>,
  objectType: string,
  writes: readonly BatchedWrite[],
  historyLimit: number,
): Promise<FinalWriteResult[]> {
  const input = writes.map(({ claim, expectedVersion, write, now, keepClaimMs, recheckAt }) => ({
    id: claim.objectId,
    owner: claim.owner,
    claim: claim.claimCount,
    expected: expectedVersion,
    next: write.kind === "transition" ? write.next : null,
    outcome: write.outcome,
    at: now.toISOString(),
    keep_until:
      write.kind === "transition" && keepClaimMs !== undefined
        ? new Date(now.getTime() + keepClaimMs).toISOString()
        : null,
    recheck_at: write.kind === "outcome" && recheckAt ? recheckAt.toISOString() : null,
  }));
  const { rows } = await sql<{ id: string; held: boolean; written: boolean }>`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(input)}::jsonb) AS i(id text, owner text, claim integer,
        expected bigint, next jsonb, outcome jsonb, at timestamptz, keep_until timestamptz,
        recheck_at timestamptz)
    ), claim AS (
      SELECT q.object_id AS id, q.rerun_requested_at FROM state_queue q JOIN input i
        ON q.object_type = ${objectType} AND q.object_id = i.id AND q.owner = i.owner AND q.claim_count = i.claim
      ORDER BY q.object_id
      FOR UPDATE OF q
    ), written AS (
      UPDATE state_objects o SET
        state = COALESCE(i.next, o.state),
        version = o.version + CASE WHEN i.next IS NULL THEN 0 ELSE 1 END,
        state_entered_at = CASE WHEN i.next IS NULL THEN o.state_entered_at ELSE i.at END,
        outcome = i.outcome, updated_at = i.at
      FROM input i
      WHERE o.object_type = ${objectType} AND o.object_id = i.id AND o.version = i.expected
        AND i.id IN (SELECT id FROM claim)
      RETURNING o.object_id AS id, o.version, o.state, i.next IS NOT NULL AS moved
    ), closed AS (
      -- state_objects is read as it was before this statement: the last outcome of the state left, or this
      -- transition when the state recorded none of its own.
      UPDATE state_history h SET exit_outcome = COALESCE(
        CASE WHEN o.outcome ->> 'kind' <> 'transition' THEN o.outcome END, i.outcome)
      FROM written w JOIN input i ON i.id = w.id JOIN state_objects o ON o.object_type = ${objectType}
        AND o.object_id = w.id
      WHERE w.moved AND h.object_type = ${objectType} AND h.object_id = w.id AND h.version = i.expected
    ), history AS (
      INSERT INTO state_history (object_type, object_id, version, state, entered_at)
      SELECT ${objectType}, w.id, w.version, w.state, i.at FROM written w JOIN input i ON i.id = w.id
      WHERE w.moved
    ), trimmed AS (
      DELETE FROM state_history h USING written w
      WHERE w.moved AND w.version % ${HISTORY_TRIM_EVERY}::bigint = 0 AND h.object_type = ${objectType}
        AND h.object_id = w.id AND h.version <= w.version - ${historyLimit}::bigint
    ), ending AS (
      SELECT w.id, i.owner, i.claim, i.at, i.keep_until, i.recheck_at, w.moved, c.rerun_requested_at
      FROM written w JOIN input i ON i.id = w.id JOIN claim c ON c.id = w.id
    ), kept AS (
      UPDATE state_queue q SET claim_count = q.claim_count + 1, lease_expires_at = e.keep_until,
        rerun_requested_at = NULL, enqueued_at = e.at
      FROM ending e
      WHERE e.moved AND e.keep_until IS NOT NULL AND q.object_type = ${objectType} AND q.object_id = e.id
        AND q.owner = e.owner AND q.claim_count = e.claim
    ), requeued AS (
      UPDATE state_queue q SET owner = NULL, lease_expires_at = NULL, rerun_requested_at = NULL,
        enqueued_at = COALESCE(q.rerun_requested_at, e.at)
      FROM ending e
      WHERE e.keep_until IS NULL AND (e.moved OR e.rerun_requested_at IS NOT NULL)
        AND q.object_type = ${objectType} AND q.object_id = e.id AND q.owner = e.owner AND q.claim_count = e.claim
    ), removed AS (
      DELETE FROM state_queue q USING ending e
      WHERE e.keep_until IS NULL AND NOT e.moved AND e.rerun_requested_at IS NULL AND e.recheck_at IS NULL
        AND q.object_type = ${objectType} AND q.object_id = e.id AND q.owner = e.owner AND q.claim_count = e.claim
    ), parked AS (
      UPDATE state_queue q SET owner = NULL, lease_expires_at = NULL, rerun_requested_at = NULL,
        due_at = e.recheck_at, enqueued_at = e.recheck_at
      FROM ending e
      WHERE e.keep_until IS NULL AND NOT e.moved AND e.rerun_requested_at IS NULL AND e.recheck_at IS NOT NULL
        AND q.object_type = ${objectType} AND q.object_id = e.id AND q.owner = e.owner AND q.claim_count = e.claim
    )
    SELECT i.id, c.id IS NOT NULL AS held, w.id IS NOT NULL AS written
    FROM input i LEFT JOIN claim c ON c.id = i.id LEFT JOIN written w ON w.id = i.id`.execute(db);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return writes.map(({ claim }) => {
    const row = byId.get(claim.objectId);
    return { held: row?.held ?? false, written: row?.written ?? false };
  });
}
