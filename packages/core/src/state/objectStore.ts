import { type Kysely, sql } from "kysely";
import type { EngineTables, JsonObject } from "./database.js";
import type { HistoryRow, ObjectKey, ObjectRow } from "./records.js";
import type { StoredOutcome, TaggedState } from "./types.js";

/** Creating objects, and the reads behind the engine's views. (The final write is in finalWrite.ts.) */

type Db = Kysely<EngineTables>;

const OBJECT_COLUMNS = [
  "object_type",
  "object_id",
  "state",
  "version",
  "state_entered_at",
  "outcome",
] as const;

/**
 * Inserts the object at version 1 with its first history row and a due queue row, and NOTIFYs — one
 * statement, so it is atomic even outside a transaction. False when the object already exists.
 */
export async function insertObject(
  db: Db,
  key: ObjectKey,
  state: TaggedState,
  now: Date,
  channel: string,
): Promise<boolean> {
  const { rows } = await sql<{ notified: unknown }>`
    WITH created AS (
      INSERT INTO state_objects (object_type, object_id, state, version, state_entered_at, created_at, updated_at)
      VALUES (${key.objectType}, ${key.objectId}, ${JSON.stringify(state)}::jsonb, 1, ${now}::timestamptz,
        ${now}::timestamptz, ${now}::timestamptz)
      ON CONFLICT (object_type, object_id) DO NOTHING
      RETURNING object_type, object_id, state
    ), history AS (
      INSERT INTO state_history (object_type, object_id, version, state, entered_at)
      SELECT object_type, object_id, 1, state, ${now}::timestamptz FROM created
    ), queued AS (
      INSERT INTO state_queue (object_type, object_id, due_at, enqueued_at)
      SELECT object_type, object_id, ${now}::timestamptz, ${now}::timestamptz FROM created
    )
    SELECT pg_notify(${channel}, object_type) AS notified FROM created`.execute(db);
  return rows.length > 0;
}

export async function readObject(db: Db, key: ObjectKey): Promise<ObjectRow | undefined> {
  const row = await db
    .selectFrom("state_objects")
    .select(OBJECT_COLUMNS)
    .where("object_type", "=", key.objectType)
    .where("object_id", "=", key.objectId)
    .executeTakeFirst();
  return row && toObjectRow(row);
}

export async function listObjects(
  db: Db,
  objectType: string,
  options: { state?: string; limit: number; after?: string },
): Promise<ObjectRow[]> {
  let query = db.selectFrom("state_objects").select(OBJECT_COLUMNS).where("object_type", "=", objectType);
  if (options.state !== undefined) query = query.where(sql<string>`state ->> 'state'`, "=", options.state);
  if (options.after !== undefined) query = query.where("object_id", ">", options.after);
  const rows = await query.orderBy("object_id").limit(options.limit).execute();
  return rows.map(toObjectRow);
}

export async function readHistory(db: Db, key: ObjectKey, limit: number): Promise<HistoryRow[]> {
  // Callers that want the state alone (an agent's poll) ask for none: no statement for it.
  if (limit <= 0) return [];
  const rows = await db
    .selectFrom("state_history")
    .select(["state", "version", "entered_at", "exit_outcome"])
    .where("object_type", "=", key.objectType)
    .where("object_id", "=", key.objectId)
    .orderBy("version", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    state: row.state as TaggedState,
    version: row.version,
    enteredAt: row.entered_at,
    exitOutcome: row.exit_outcome as StoredOutcome | null,
  }));
}

function toObjectRow(row: {
  object_type: string;
  object_id: string;
  state: JsonObject;
  version: number;
  state_entered_at: Date;
  outcome: JsonObject | null;
}): ObjectRow {
  return {
    objectType: row.object_type,
    objectId: row.object_id,
    state: row.state as TaggedState,
    version: row.version,
    enteredAt: row.state_entered_at,
    outcome: row.outcome as StoredOutcome | null,
  };
}
