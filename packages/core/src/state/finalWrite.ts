import { type Kysely, type RawBuilder, sql } from "kysely";
import type { EngineTables } from "./database.js";
import { claimCte, endClaimCtes, heldBy } from "./queue.js";
import type { Claim } from "./records.js";
import type { StoredOutcome, TaggedState } from "./types.js";

/**
 * History is trimmed on every this-many-th version only (a transition's statement mostly skips the DELETE):
 * an object keeps between `historyLimit` and `historyLimit + HISTORY_TRIM_EVERY - 1` rows.
 */
export const HISTORY_TRIM_EVERY = 8;

/** What the final write does to the object. */
export type StateWrite =
  | { kind: "transition"; next: TaggedState; outcome: StoredOutcome; historyLimit: number }
  | { kind: "outcome"; outcome: StoredOutcome }
  | { kind: "delete" };

export interface FinalWriteResult {
  /** The claim was still held (else nothing was written: the lease was taken over or released). */
  held: boolean;
  /** The version still matched and the write happened (else nothing was written). */
  written: boolean;
}

/**
 * The final write as ONE statement: lock the claim's queue row (only if this claim still holds it),
 * compare-and-set the object at `expectedVersion`, on a transition close the left state's history row with its
 * last outcome and append (and now and then trim) history, then end the
 * claim (requeued after a transition or an enqueue during the run, else deleted; see `endClaimCtes`). A
 * single statement is atomic on its own, so a run without deferred writes needs no explicit transaction
 * (one round trip); with deferred writes the caller runs it first in their transaction.
 */
export async function writeFinal(
  db: Kysely<EngineTables>,
  claim: Claim,
  options: {
    expectedVersion: number;
    write: StateWrite;
    now: Date;
    /**
     * On a transition, keep the claim for the next state's run instead of requeueing it: the claim's counter
     * moves on (a new run) and its lease is renewed for this long (ms). See `keptClaim`.
     */
    keepClaimMs?: number;
    /** Not a transition: leave the queue row due at this time instead of deleting it (see `endClaimCtes`). */
    recheckAt?: Date;
  },
): Promise<FinalWriteResult> {
  const { write, now } = options;
  const key = sql`object_type = ${claim.objectType} AND object_id = ${claim.objectId}`;
  const guard = sql`${key} AND version = ${options.expectedVersion}::bigint AND EXISTS (SELECT 1 FROM claim)`;
  const steps: RawBuilder<unknown>[] = [];

  if (write.kind === "delete") {
    // History and the queue row go with the object (ON DELETE CASCADE).
    steps.push(sql`written AS (DELETE FROM state_objects WHERE ${guard} RETURNING version)`);
  } else if (write.kind === "outcome") {
    steps.push(sql`written AS (
      UPDATE state_objects SET outcome = ${JSON.stringify(write.outcome)}::jsonb, updated_at = ${now}::timestamptz
      WHERE ${guard} RETURNING version)`);
  } else {
    steps.push(
      sql`written AS (
        UPDATE state_objects SET state = ${JSON.stringify(write.next)}::jsonb, version = version + 1,
          state_entered_at = ${now}::timestamptz, outcome = ${JSON.stringify(write.outcome)}::jsonb,
          updated_at = ${now}::timestamptz
        WHERE ${guard} RETURNING version, state)`,
      // The subquery reads the object as it was before this statement: the last outcome of the state left,
      // or this transition when the state recorded none of its own (it was left on its first run).
      sql`closed AS (
        UPDATE state_history
        SET exit_outcome = COALESCE(
          (SELECT outcome FROM state_objects WHERE ${key} AND outcome ->> 'kind' <> 'transition'),
          ${JSON.stringify(write.outcome)}::jsonb)
        WHERE ${key} AND version = ${options.expectedVersion}::bigint AND EXISTS (SELECT 1 FROM written))`,
      sql`history AS (
        INSERT INTO state_history (object_type, object_id, version, state, entered_at)
        SELECT ${claim.objectType}, ${claim.objectId}, version, state, ${now}::timestamptz FROM written)`,
      sql`trimmed AS (
        DELETE FROM state_history
        WHERE ${key} AND (SELECT version % ${HISTORY_TRIM_EVERY}::bigint FROM written) = 0
          AND version <= (SELECT version FROM written) - ${write.historyLimit}::bigint)`,
    );
  }
  const when = sql`EXISTS (SELECT 1 FROM written)`;
  if (write.kind === "transition" && options.keepClaimMs !== undefined) {
    const leaseUntil = new Date(now.getTime() + options.keepClaimMs);
    steps.push(sql`kept AS (
      UPDATE state_queue SET claim_count = claim_count + 1, lease_expires_at = ${leaseUntil}::timestamptz,
        rerun_requested_at = NULL, enqueued_at = ${now}::timestamptz
      WHERE ${heldBy(claim)} AND ${when})`);
  } else if (write.kind !== "delete") {
    steps.push(
      ...endClaimCtes(claim, {
        runAgain: write.kind === "transition",
        now,
        when,
        ...(write.kind === "outcome" && options.recheckAt ? { recheckAt: options.recheckAt } : {}),
      }),
    );
  }

  const { rows } = await sql<{ held: boolean; written: boolean }>`
    WITH ${claimCte(claim)}, ${sql.join(steps)}
    SELECT EXISTS (SELECT 1 FROM claim) AS held, EXISTS (SELECT 1 FROM written) AS written`.execute(db);
  return { held: rows[0]?.held ?? false, written: rows[0]?.written ?? false };
}

/** The claim a transition written with `keepClaimMs` holds for the next state's run. */
export function keptClaim(claim: Claim, next: TaggedState, expectedVersion: number, now: Date): Claim {
  return {
    ...claim,
    claimCount: claim.claimCount + 1,
    enqueuedAt: now,
    claimedAt: now,
    previousOwner: null,
    current: { state: next, version: expectedVersion + 1, enteredAt: now },
  };
}

/**
 * Whether a final write is in the database. Asked when its statement had no answer (the connection was lost,
 * maybe after the commit) or found its claim gone (the claim a committed write ended, when the write is sent
 * again): the write's own traces — its outcome on the object, its history row, or the object gone — tell.
 */
export async function finalWriteLanded(
  db: Kysely<EngineTables>,
  claim: Claim,
  options: { expectedVersion: number; write: StateWrite; now: Date },
): Promise<boolean> {
  const { write } = options;
  const key = sql`object_type = ${claim.objectType} AND object_id = ${claim.objectId}`;
  const trace =
    write.kind === "delete"
      ? sql`NOT EXISTS (SELECT 1 FROM state_objects WHERE ${key})`
      : write.kind === "outcome"
        ? sql`EXISTS (SELECT 1 FROM state_objects WHERE ${key} AND version = ${options.expectedVersion}::bigint
            AND outcome = ${JSON.stringify(write.outcome)}::jsonb)`
        : sql`EXISTS (SELECT 1 FROM state_history WHERE ${key} AND version = ${options.expectedVersion + 1}::bigint
            AND entered_at = ${options.now}::timestamptz)`;
  const { rows } = await sql<{ landed: boolean }>`SELECT ${trace} AS landed`.execute(db);
  return rows[0]?.landed === true;
}
