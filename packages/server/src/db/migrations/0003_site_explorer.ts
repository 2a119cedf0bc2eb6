import type { Migration } from "./migration.js";

/** Explored endpoints, their reports and findings, managed hosts and DPUs (issue 5). */
export const siteExplorer: Migration = {
  name: "0003_site_explorer",
  statements: [
    `CREATE TABLE explored_endpoints (
      address text PRIMARY KEY,
      bmc_mac text,
      vendor text,
      driver text,
      report jsonb,
      report_version integer NOT NULL DEFAULT 0,
      last_error jsonb,
      last_explored_at timestamptz,
      latency_ms integer,
      exploration_requested boolean NOT NULL DEFAULT false,
      findings jsonb NOT NULL DEFAULT '[]',
      auth_failures integer NOT NULL DEFAULT 0,
      last_auth_failure_at timestamptz,
      last_power_on_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`,
    `CREATE TABLE explored_managed_hosts (
      host_address text PRIMARY KEY REFERENCES explored_endpoints ON DELETE CASCADE,
      status text NOT NULL CHECK (status IN ('ingested', 'waiting', 'rejected', 'unexpected')),
      code text,
      reason text,
      machine_id text,
      serial text,
      dpus jsonb NOT NULL DEFAULT '[]',
      updated_at timestamptz NOT NULL
    )`,
    `CREATE TABLE machines (
      id text PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('host', 'dpu')),
      serial text NOT NULL,
      bmc_address text NOT NULL,
      bmc_mac text NOT NULL UNIQUE,
      host_id text REFERENCES machines ON DELETE CASCADE,
      host_facing_mac text,
      primary_dpu boolean NOT NULL DEFAULT false,
      vendor text,
      model text,
      created_at timestamptz NOT NULL,
      UNIQUE (kind, serial),
      CHECK ((kind = 'dpu') = (host_id IS NOT NULL))
    )`,
    `CREATE INDEX machines_by_host ON machines (host_id)`,
  ],
};
