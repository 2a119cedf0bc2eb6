import type { Migration } from "./migration.js";

/** The state engine: objects, their queue (also the lock), their bounded history, and work locks. */
export const stateEngine: Migration = {
  name: "0001_state_engine",
  statements: [
    `CREATE TABLE state_objects (
      object_type text NOT NULL,
      object_id text NOT NULL,
      state jsonb NOT NULL CHECK (jsonb_typeof(state -> 'state') = 'string'),
      version bigint NOT NULL,
      state_entered_at timestamptz NOT NULL,
      outcome jsonb,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (object_type, object_id)
    )`,
    `CREATE INDEX state_objects_by_state ON state_objects (object_type, (state ->> 'state'), object_id)`,
    `CREATE TABLE state_queue (
      object_type text NOT NULL,
      object_id text NOT NULL,
      due_at timestamptz NOT NULL,
      enqueued_at timestamptz NOT NULL,
      owner text,
      claim_count bigint NOT NULL DEFAULT 0,
      lease_expires_at timestamptz,
      rerun_requested_at timestamptz,
      PRIMARY KEY (object_type, object_id),
      FOREIGN KEY (object_type, object_id) REFERENCES state_objects ON DELETE CASCADE
    )`,
    `CREATE INDEX state_queue_due ON state_queue (object_type, due_at)`,
    `CREATE TABLE state_history (
      object_type text NOT NULL,
      object_id text NOT NULL,
      version bigint NOT NULL,
      state jsonb NOT NULL,
      entered_at timestamptz NOT NULL,
      PRIMARY KEY (object_type, object_id, version),
      FOREIGN KEY (object_type, object_id) REFERENCES state_objects ON DELETE CASCADE
    )`,
    `CREATE TABLE work_locks (
      work_key text PRIMARY KEY,
      owner text NOT NULL,
      expires_at timestamptz NOT NULL
    )`,
  ],
};
