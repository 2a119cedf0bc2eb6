import type { Migration } from "./migration.js";

/** Health: reports per machine and source, operator overrides, the aggregate and its history (issue 7). */
export const health: Migration = {
  name: "0005_health",
  statements: [
    // The latest report of each source about a machine (hardware-health sensors, plugin probes, …).
    `CREATE TABLE health_reports (
      machine_id text NOT NULL REFERENCES machines ON DELETE CASCADE,
      source text NOT NULL,
      report jsonb NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (machine_id, source)
    )`,
    // Operator overrides ({ merges: { source: report }, replace? }) and the last aggregate with its hash.
    `CREATE TABLE machine_health (
      machine_id text PRIMARY KEY REFERENCES machines ON DELETE CASCADE,
      overrides jsonb NOT NULL DEFAULT '{"merges":{}}',
      aggregate jsonb,
      aggregate_hash text,
      updated_at timestamptz NOT NULL
    )`,
    // Aggregate health over time, one row per change of content (deduplicated by hash), bounded in code.
    `CREATE TABLE health_history (
      id bigserial PRIMARY KEY,
      machine_id text NOT NULL REFERENCES machines ON DELETE CASCADE,
      report jsonb NOT NULL,
      report_hash text NOT NULL,
      recorded_at timestamptz NOT NULL
    )`,
    `CREATE INDEX health_history_by_machine ON health_history (machine_id, id)`,
    // Where incremental event-log collection stopped, per machine and log (SEL, IEL, IML, …).
    `CREATE TABLE event_log_cursors (
      machine_id text NOT NULL REFERENCES machines ON DELETE CASCADE,
      log text NOT NULL,
      last_entry_id text NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (machine_id, log)
    )`,
  ],
};
