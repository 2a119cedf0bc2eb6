import type { Migration } from "./migration.js";

/** The managed-host lifecycle: per-host intents and network config, agent reports, instances (issue 6). */
export const lifecycle: Migration = {
  name: "0004_lifecycle",
  statements: [
    // One row per managed host: what the lifecycle and the APIs record about it besides its state.
    `CREATE TABLE managed_hosts (
      host_id text PRIMARY KEY REFERENCES machines ON DELETE CASCADE,
      use_admin_network boolean NOT NULL DEFAULT true,
      network_config_version integer NOT NULL DEFAULT 1,
      force_delete_requested_at timestamptz,
      updated_at timestamptz NOT NULL
    )`,
    // One row per host or DPU: what its agent last said, and the last reboot the lifecycle asked for.
    `CREATE TABLE machine_reports (
      machine_id text PRIMARY KEY REFERENCES machines ON DELETE CASCADE,
      inventory jsonb,
      discovered_at timestamptz,
      discovery_completed_at timestamptz,
      reboot_completed_at timestamptz,
      cleanup_completed_at timestamptz,
      cleanup_result jsonb,
      validation_completed_at timestamptz,
      validation_result jsonb,
      network_status jsonb,
      network_status_at timestamptz,
      last_contact_at timestamptz,
      last_reboot_request jsonb,
      updated_at timestamptz NOT NULL
    )`,
    `CREATE TABLE instances (
      id text PRIMARY KEY,
      name text NOT NULL,
      machine_id text NOT NULL REFERENCES machines ON DELETE CASCADE,
      tenant_org text NOT NULL,
      instance_type text,
      config jsonb NOT NULL,
      config_version integer NOT NULL DEFAULT 1,
      release_requested_at timestamptz,
      release_issue jsonb,
      terminated_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`,
    // At most one live instance per host: concurrent allocations of one host — exactly one insert wins.
    `CREATE UNIQUE INDEX instances_one_live_per_machine ON instances (machine_id) WHERE terminated_at IS NULL`,
    `CREATE INDEX instances_by_tenant ON instances (tenant_org, created_at)`,
  ],
};
