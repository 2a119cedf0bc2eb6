import type { Migration } from "./migration.js";

/** NVLink tenant isolation (issue 9): logical partitions, their physical partition per domain, observations. */
export const nvlink: Migration = {
  name: "0007_nvlink",
  statements: [
    // A tenant's logical partition; deleted_at marks it for the monitor, which removes it once it owns nothing.
    `CREATE TABLE nvlink_logical_partitions (
      id text PRIMARY KEY,
      name text NOT NULL,
      tenant_org text NOT NULL,
      deleted_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`,
    `CREATE INDEX nvlink_logical_partitions_by_tenant ON nvlink_logical_partitions (tenant_org)`,
    // The NMX-M partition a logical partition owns in one NVLink domain.
    `CREATE TABLE nvlink_physical_partitions (
      logical_partition_id text NOT NULL REFERENCES nvlink_logical_partitions ON DELETE CASCADE,
      domain text NOT NULL,
      nmxm_id text NOT NULL,
      number integer,
      name text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (logical_partition_id, domain)
    )`,
    // What the monitor last saw of a host's GPUs: NMX-M ids, domain, partition, the logical partition it is in.
    `CREATE TABLE nvlink_gpu_observations (
      machine_id text PRIMARY KEY REFERENCES machines ON DELETE CASCADE,
      gpus jsonb NOT NULL,
      problems jsonb NOT NULL,
      observed_at timestamptz NOT NULL
    )`,
    // The last NMX-M operation per target (logical partition or foreign partition, and domain) and how it ended.
    `CREATE TABLE nvlink_operations (
      target text NOT NULL,
      domain text NOT NULL,
      kind text NOT NULL,
      operation_id text,
      status text NOT NULL,
      error text,
      gpus jsonb NOT NULL,
      started_at timestamptz NOT NULL,
      finished_at timestamptz,
      PRIMARY KEY (target, domain)
    )`,
  ],
};
