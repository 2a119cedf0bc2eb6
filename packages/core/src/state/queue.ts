import { type Kysely, type RawBuilder, sql } from "kysely";
import type { EngineTables } from "./database.js";
import type { Claim, ObjectKey } from "./records.js";
import type { TaggedState } from "./types.js";

/**
 * The queue table is the lock. A row means "run this object"; a worker claims due rows with
 * `FOR UPDATE SKIP LOCKED`, stamping its owner id, a claim counter and a lease. Only the holder of that exact
 * claim (owner + counter) may finish it; a claim whose lease expired may be taken over by anyone. An enqueue
 * that arrives while a row is claimed is remembered in `rerun_requested_at` and turns the completion into a
 * requeue instead of a delete, so it is never lost.
 */

type Db = Kysely<EngineTables>;

/** Makes an existing object due now (idempotent) and NOTIFYs `channel`; false when the object does not exist. */
export async function enqueueObject(db: Db, key: ObjectKey, now: Date, channel: string): Promise<boolean> {
  const { rows } = await sql<{ notified: unknown }>`
    WITH queued AS (
      INSERT INTO state_queue (object_type, object_id, due_at, enqueued_at)
      SELECT object_type, object_id, ${now}::timestamptz, ${now}::timestamptz
      FROM state_objects WHERE object_type = ${key.objectType} AND object_id = ${key.objectId}
      ON CONFLICT (object_type, object_id) DO UPDATE SET
        due_at = LEAST(state_queue.due_at, excluded.due_at),
        -- A row parked for a recheck (or spread by the periodic batch) counts as enqueued now, not then.
        enqueued_at = LEAST(state_queue.enqueued_at, excluded.enqueued_at),
        rerun_requested_at = CASE WHEN state_queue.owner IS NULL THEN state_queue.rerun_requested_at
          ELSE COALESCE(state_queue.rerun_requested_at, excluded.enqueued_at) END
      RETURNING 1
    )
    SELECT pg_notify(${channel}, ${key.objectType}) AS notified FROM queued`.execute(db);
  return rows.length > 0;
}

/**
 * The periodic enqueue: every object of the type not already queued becomes due, each at a random time within
 * `spreadMs` from now (0: all now), so a large periodic batch comes steadily instead of queueing all at once
 * ahead of every enqueue that follows. Returns how many.
 */
export async function enqueueAllObjects(
  db: Db,
  objectType: string,
  now: Date,
  spreadMs = 0,
): Promise<number> {
  const { rows } = await sql<{ queued: number }>`
    WITH queued AS (
      INSERT INTO state_queue (object_type, object_id, due_at, enqueued_at)
      SELECT object_type, object_id, due, due FROM (
        SELECT object_type, object_id,
          ${now}::timestamptz + floor(random() * ${spreadMs}::double precision) * interval '1 millisecond' AS due
        FROM state_objects WHERE object_type = ${objectType}
      ) spread
      ON CONFLICT (object_type, object_id) DO NOTHING
      RETURNING 1
    )
    SELECT count(*) AS queued FROM queued`.execute(db);
  return rows[0]?.queued ?? 0;
}

export interface ClaimRequest {
  objectType: string;
  owner: string;
  now: Date;
  leaseMs: number;
  limit: number;
  /** Ids this worker is still running (a handler past its timeout): never claim them again meanwhile. */
  exclude?: readonly string[];
}

/**
 * Claims up to `limit` due rows that are free or whose lease expired, oldest due first, and reads each
 * object's current state in the same statement.
 */
export async function claimDue(db: Db, request: ClaimRequest): Promise<Claim[]> {
  const { objectType, owner, now, limit } = request;
  const leaseUntil = new Date(now.getTime() + request.leaseMs);
  const exclude = request.exclude?.length
    ? sql`AND object_id NOT IN (${sql.join(request.exclude.map((id) => sql`${id}`))})`
    : sql``;
  const { rows } = await sql<{
    object_id: string;
    claim_count: number;
    enqueued_at: Date;
    previous_owner: string | null;
    state: TaggedState;
    version: number;
    state_entered_at: Date;
  }>`
    WITH due AS (
      SELECT object_type, object_id, owner AS previous_owner FROM state_queue
      WHERE object_type = ${objectType} AND due_at <= ${now}::timestamptz
        AND (owner IS NULL OR lease_expires_at <= ${now}::timestamptz) ${exclude}
      ORDER BY due_at
      LIMIT ${limit}::int
      FOR UPDATE SKIP LOCKED
    )
    UPDATE state_queue AS q SET
      owner = ${owner}, claim_count = q.claim_count + 1,
      lease_expires_at = ${leaseUntil}::timestamptz, rerun_requested_at = NULL
    FROM due, state_objects o
    WHERE q.object_type = due.object_type AND q.object_id = due.object_id
      AND o.object_type = q.object_type AND o.object_id = q.object_id
    RETURNING q.object_id, q.claim_count, q.enqueued_at, due.previous_owner, o.state, o.version,
      o.state_entered_at`.execute(db);
  return rows.map((row) => ({
    objectType,
    objectId: row.object_id,
    owner,
    claimCount: row.claim_count,
    enqueuedAt: row.enqueued_at,
    claimedAt: now,
    previousOwner: row.previous_owner,
    current: { state: row.state, version: row.version, enteredAt: row.state_entered_at },
  }));
}

/** WHERE condition: the row is held by exactly this claim. */
export function heldBy(claim: Claim): RawBuilder<unknown> {
  return sql`object_type = ${claim.objectType} AND object_id = ${claim.objectId}
    AND owner = ${claim.owner} AND claim_count = ${claim.claimCount}`;
}

/**
 * The `claim` CTE of a statement that ends a claim: locks the row if this claim still holds it (empty
 * otherwise — the lease was taken over or released — and then the statement must change nothing).
 */
export function claimCte(claim: Claim): RawBuilder<unknown> {
  return sql`claim AS (SELECT rerun_requested_at FROM state_queue WHERE ${heldBy(claim)} FOR UPDATE)`;
}

/**
 * CTEs ending the claim locked by `claimCte`, when `when` holds: requeue the row if `runAgain` or an
 * enqueue arrived during the run, else delete it — or, given `recheckAt`, leave it unclaimed and due then (an
 * enqueue meanwhile makes it due at once; the periodic enqueue leaves it be). A requeued row keeps its `due_at`, i.e. its place in the
 * queue: it continues work already under way, so it goes ahead of rows enqueued since (a periodic batch of
 * every object, say). No NOTIFY: the run that ends frees a slot in this process, whose worker claims again
 * at once — and a NOTIFY would make the commit take PostgreSQL's global notify lock (held through the WAL
 * flush), serialising the final writes of every replica.
 */
export function endClaimCtes(
  claim: Claim,
  options: { runAgain: boolean; now: Date; when?: RawBuilder<unknown>; recheckAt?: Date },
): RawBuilder<unknown>[] {
  const when = options.when ?? sql`TRUE`;
  const again = sql`(${options.runAgain}::boolean OR (SELECT rerun_requested_at FROM claim) IS NOT NULL)`;
  const requeued = sql`requeued AS (
      UPDATE state_queue SET owner = NULL, lease_expires_at = NULL, rerun_requested_at = NULL,
        enqueued_at = COALESCE(rerun_requested_at, ${options.now}::timestamptz)
      WHERE ${heldBy(claim)} AND ${when} AND ${again})`;
  if (options.recheckAt === undefined)
    return [
      requeued,
      sql`removed AS (DELETE FROM state_queue WHERE ${heldBy(claim)} AND ${when} AND NOT ${again})`,
    ];
  return [
    requeued,
    sql`parked AS (
      UPDATE state_queue SET owner = NULL, lease_expires_at = NULL, rerun_requested_at = NULL,
        due_at = ${options.recheckAt}::timestamptz, enqueued_at = ${options.recheckAt}::timestamptz
      WHERE ${heldBy(claim)} AND ${when} AND NOT ${again})`,
  ];
}

/**
 * Ends a claim without writing any state (one statement). False when the claim was no longer held.
 */
export async function completeClaim(
  db: Db,
  claim: Claim,
  options: { runAgain: boolean; now: Date },
): Promise<boolean> {
  const { rows } = await sql<{ held: boolean }>`
    WITH ${claimCte(claim)}, ${sql.join(endClaimCtes(claim, options))}
    SELECT EXISTS (SELECT 1 FROM claim) AS held`.execute(db);
  return rows[0]?.held ?? false;
}

/**
 * Extends the leases of claims this engine still holds (its running handlers) to `now + leaseMs`; returns
 * the ids whose claim was still held. A claim taken over meanwhile is not touched.
 */
export async function renewLeases(
  db: Db,
  claims: readonly Claim[],
  options: { now: Date; leaseMs: number },
): Promise<Set<string>> {
  if (claims.length === 0) return new Set();
  const until = new Date(options.now.getTime() + options.leaseMs);
  const held = sql.join(
    claims.map(
      (claim) =>
        sql`(${claim.objectType}::text, ${claim.objectId}::text, ${claim.owner}::text, ${claim.claimCount}::int)`,
    ),
  );
  const { rows } = await sql<{ object_type: string; object_id: string }>`
    UPDATE state_queue SET lease_expires_at = ${until}::timestamptz
    WHERE (object_type, object_id, owner, claim_count) IN (${held})
    RETURNING object_type, object_id`.execute(db);
  return new Set(rows.map((row) => `${row.object_type}/${row.object_id}`));
}

/** Frees every claim (the engine's start on a database only it can use); the rows stay due. */
export async function releaseAllClaims(db: Db): Promise<number> {
  const result = await db
    .updateTable("state_queue")
    .set({ owner: null, lease_expires_at: null, rerun_requested_at: null })
    .where("owner", "is not", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Gives claims back at shutdown (and NOTIFYs) so another replica runs them now, not after the lease. */
export async function releaseClaims(db: Db, claims: readonly Claim[], channel: string): Promise<number> {
  let released = 0;
  for (const claim of claims) {
    const { rows } = await sql<{ notified: unknown }>`
      WITH released AS (
        UPDATE state_queue SET owner = NULL, lease_expires_at = NULL, rerun_requested_at = NULL
        WHERE ${heldBy(claim)}
        RETURNING 1
      )
      SELECT pg_notify(${channel}, ${claim.objectType}) AS notified FROM released`.execute(db);
    released += rows.length;
  }
  return released;
}

export interface QueueDepth {
  objectType: string;
  /** Due and not held by a live claim. */
  waiting: number;
  /** Held by a live claim (a handler is running). */
  claimed: number;
}

export async function queueDepth(db: Db, objectTypes: readonly string[], now: Date): Promise<QueueDepth[]> {
  if (objectTypes.length === 0) return [];
  const { rows } = await sql<{ object_type: string; waiting: number; claimed: number }>`
    SELECT object_type,
      count(*) FILTER (WHERE due_at <= ${now}::timestamptz
        AND (owner IS NULL OR lease_expires_at <= ${now}::timestamptz)) AS waiting,
      count(*) FILTER (WHERE owner IS NOT NULL AND lease_expires_at > ${now}::timestamptz) AS claimed
    FROM state_queue
    WHERE object_type IN (${sql.join(objectTypes.map((type) => sql`${type}`))})
    GROUP BY object_type`.execute(db);
  return rows.map((row) => ({ objectType: row.object_type, waiting: row.waiting, claimed: row.claimed }));
}
