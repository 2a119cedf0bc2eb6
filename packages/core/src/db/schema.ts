import type { ColumnType } from "kysely";

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A jsonb column: read as parsed JSON, written as JSON text (the same parameter works on pg and PGlite). */
export type JsonColumn<T> = ColumnType<T, string, string>;
export type Timestamp = ColumnType<Date, Date, Date>;

export interface MigrationsTable {
  name: string;
  applied_at: Timestamp;
}

/** One row per object driven by a state machine; `version` is the compare-and-set guard. */
export interface StateObjectsTable {
  object_type: string;
  object_id: string;
  state: JsonColumn<JsonObject>;
  version: number;
  state_entered_at: Timestamp;
  outcome: JsonColumn<JsonObject | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/**
 * The work queue and the lock: a row means "run this object"; `owner` + `claim_count` identify the claim
 * holding it until `lease_expires_at`; `rerun_requested_at` records an enqueue that arrived while claimed.
 */
export interface StateQueueTable {
  object_type: string;
  object_id: string;
  due_at: Timestamp;
  enqueued_at: Timestamp;
  owner: string | null;
  claim_count: ColumnType<number, number | undefined, number>;
  lease_expires_at: Timestamp | null;
  rerun_requested_at: Timestamp | null;
}

export interface StateHistoryTable {
  object_type: string;
  object_id: string;
  version: number;
  state: JsonColumn<JsonObject>;
  entered_at: Timestamp;
}

/** Cluster-wide "only one replica does this" locks that expire on their own. */
export interface WorkLocksTable {
  work_key: string;
  owner: string;
  expires_at: Timestamp;
}

/**
 * Every table Racksmith creates. A feature that adds tables in a new migration extends this interface by
 * module augmentation (`declare module "…/db/schema.js" { interface RacksmithDatabase { … } }`).
 */
export interface RacksmithDatabase {
  racksmith_migrations: MigrationsTable;
  state_objects: StateObjectsTable;
  state_queue: StateQueueTable;
  state_history: StateHistoryTable;
  work_locks: WorkLocksTable;
}
