import type { HostTest, ValidationRunContext } from "@racksmith/core";
import type { ColumnType } from "kysely";
import type { JsonColumn, Timestamp } from "../db/index.js";

type NullableTimestamp = ColumnType<Date | null, Date | null | undefined, Date | null>;

/** Who asked for a run: the lifecycle (discovery, cleanup) or an operator (on demand). */
export type RunRequester = "lifecycle" | "operator";

/** A test of the catalogue (migration 0010_machine_validation): its definition as the rules parsed it. */
export interface ValidationTestsTable {
  id: string;
  definition: JsonColumn<HostTest>;
  built_in: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One run of tests on a host: the definitions it was given (as they were then), and its verdict once done. */
export interface ValidationRunsTable {
  id: string;
  machine_id: string;
  context: ValidationRunContext;
  requested_by: RunRequester;
  tests: JsonColumn<HostTest[]>;
  unschedulable: ColumnType<Array<{ testId: string; reason: string }>, string | undefined, string>;
  passed: ColumnType<boolean | null, boolean | null | undefined, boolean | null>;
  created_at: Timestamp;
  completed_at: NullableTimestamp;
}

/** What the host agent reported of one test of a run, and its verdict. */
export interface ValidationTestResultsTable {
  run_id: string;
  test_id: string;
  exit_code: number | null;
  stdout: string;
  stderr: string;
  started_at: Timestamp;
  ended_at: Timestamp;
  timed_out: boolean;
  passed: boolean;
  message: string;
}

declare module "@racksmith/core/engine" {
  interface EngineTables {
    validation_tests: ValidationTestsTable;
    validation_runs: ValidationRunsTable;
    validation_test_results: ValidationTestResultsTable;
  }
}
