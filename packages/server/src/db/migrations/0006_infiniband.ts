import type { Migration } from "./migration.js";

/** InfiniBand tenant side (issue 8): partitions, the monitor's per-host observations and fabric health. */
export const infiniband: Migration = {
  name: "0006_infiniband",
  statements: [
    // The pkey is unique across live and deleting partitions: the row going away frees it.
    `CREATE TABLE ib_partitions (
      id text PRIMARY KEY,
      name text NOT NULL,
      tenant_org text NOT NULL,
      pkey integer NOT NULL UNIQUE,
      requested_pkey integer,
      deleted_at timestamptz,
      created_at timestamptz NOT NULL
    )`,
    `CREATE INDEX ib_partitions_by_tenant ON ib_partitions (tenant_org)`,
    `CREATE TABLE ib_host_observations (
      machine_id text PRIMARY KEY REFERENCES machines ON DELETE CASCADE,
      observation jsonb,
      cleanup_guids jsonb NOT NULL DEFAULT '[]',
      reported_alerts jsonb NOT NULL DEFAULT '[]',
      updated_at timestamptz NOT NULL
    )`,
    `CREATE TABLE ib_fabric_health (
      fabric text PRIMARY KEY,
      health jsonb NOT NULL,
      updated_at timestamptz NOT NULL
    )`,
  ],
};
