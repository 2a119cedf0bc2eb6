import type { ColumnType, Kysely } from "kysely";

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A jsonb column: read as parsed JSON, written as JSON text (the same parameter works on pg and PGlite). */
export type JsonColumn<T> = ColumnType<T, string, string>;
export type Timestamp = ColumnType<Date, Date, Date>;

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
  /** The object's last outcome when it left this state (null while in it, and for rows before 0008). */
  exit_outcome: ColumnType<JsonObject | null, string | null | undefined, string | null>;
}

/** Cluster-wide "only one replica does this" locks that expire on their own. */
export interface WorkLocksTable {
  work_key: string;
  owner: string;
  expires_at: Timestamp;
}

/**
 * The tables of the database the engine runs on: the engine's own, plus every table a host adds by module
 * augmentation (`declare module "@racksmith/core/engine" { interface EngineTables { … } }`), so state
 * machines load and write their objects through the same typed Kysely instance. The host's migrations
 * create them.
 */
export interface EngineTables {
  state_objects: StateObjectsTable;
  state_queue: StateQueueTable;
  state_history: StateHistoryTable;
  work_locks: WorkLocksTable;
}

/**
 * The database the engine is given: a Kysely instance over PostgreSQL-compatible SQL plus NOTIFY/LISTEN.
 * The engine holds no dialect; the host opens the database (PGlite or PostgreSQL) and passes it in.
 */
export interface EngineDatabase {
  readonly db: Kysely<EngineTables>;
  /** The PostgreSQL schema holding the tables, when not the default; part of every NOTIFY channel name. */
  readonly schema: string | undefined;
  /** Where the data lives, safe to print (for the engine's start log line). */
  readonly description?: string;
  /** Calls `onNotify` for every NOTIFY on `channel`; resolves once listening, to a function that stops. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
}

/**
 * The NOTIFY channel for a topic. Channels are database-wide, so the schema is part of the name: replicas
 * (and test files) using different schemas of one database do not wake each other.
 */
export function channelName(topic: string, schema: string | undefined): string {
  return (schema ? `racksmith_${topic}_${schema}` : `racksmith_${topic}`).slice(0, 63);
}
