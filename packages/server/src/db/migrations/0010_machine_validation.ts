import type { Migration } from "./migration.js";

/**
 * Machine validation (issue 21): the catalogue of tests the host agent runs (the plugin's built-in ones
 * written at start, read-only; the site's own), each run of them on a host, and each test's outcome.
 */
export const machineValidation: Migration = {
  name: "0010_machine_validation",
  statements: [
    `CREATE TABLE validation_tests (
      id text PRIMARY KEY CHECK (id <> ''),
      definition jsonb NOT NULL CHECK (jsonb_typeof(definition) = 'object'),
      built_in boolean NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`,
    `CREATE TABLE validation_runs (
      id text PRIMARY KEY,
      machine_id text NOT NULL REFERENCES machines ON DELETE CASCADE,
      context text NOT NULL CHECK (context IN ('discovery', 'cleanup', 'onDemand')),
      requested_by text NOT NULL CHECK (requested_by IN ('lifecycle', 'operator')),
      tests jsonb NOT NULL CHECK (jsonb_typeof(tests) = 'array'),
      unschedulable jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(unschedulable) = 'array'),
      passed boolean,
      created_at timestamptz NOT NULL,
      completed_at timestamptz
    )`,
    `CREATE INDEX validation_runs_by_machine ON validation_runs (machine_id, created_at DESC)`,
    `CREATE TABLE validation_test_results (
      run_id text NOT NULL REFERENCES validation_runs ON DELETE CASCADE,
      test_id text NOT NULL,
      exit_code integer,
      stdout text NOT NULL,
      stderr text NOT NULL,
      started_at timestamptz NOT NULL,
      ended_at timestamptz NOT NULL,
      timed_out boolean NOT NULL,
      passed boolean NOT NULL,
      message text NOT NULL,
      PRIMARY KEY (run_id, test_id)
    )`,
  ],
};
