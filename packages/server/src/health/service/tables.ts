import type { HealthReport } from "@racksmith/core/health";
import type { ColumnType } from "kysely";
import type { JsonColumn, Timestamp } from "../../db/index.js";
import type { HealthOverrides } from "../overrides.js";

/** A nullable jsonb column: read as parsed JSON, written as JSON text or null. */
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

/** The latest report of one source about one machine (migration 0005_health). */
export interface HealthReportsTable {
  machine_id: string;
  source: string;
  report: JsonColumn<HealthReport>;
  updated_at: Timestamp;
}

/** Per machine: the operator overrides, and (hosts) the last aggregate with its content hash. */
export interface MachineHealthTable {
  machine_id: string;
  overrides: ColumnType<HealthOverrides, string | undefined, string>;
  aggregate: NullableJson<HealthReport>;
  aggregate_hash: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: Timestamp;
}

/** One row per change of a host's aggregate content; bounded by the service. */
export interface HealthHistoryTable {
  id: ColumnType<string, never, never>;
  machine_id: string;
  report: JsonColumn<HealthReport>;
  report_hash: string;
  recorded_at: Timestamp;
}

/** Where incremental event-log collection stopped, per machine and log (written by the BMC monitor). */
export interface EventLogCursorsTable {
  machine_id: string;
  log: string;
  last_entry_id: string;
  updated_at: Timestamp;
}

declare module "@racksmith/core/engine" {
  interface EngineTables {
    health_reports: HealthReportsTable;
    machine_health: MachineHealthTable;
    health_history: HealthHistoryTable;
    event_log_cursors: EventLogCursorsTable;
  }
}
