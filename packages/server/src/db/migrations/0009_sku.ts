import type { Migration } from "./migration.js";

/**
 * SKU (BOM) validation (issue 21): the SKUs, as the plugin's rules parsed them, and per host its assignment,
 * the operator's last request to verify it again and the last verdict.
 */
export const sku: Migration = {
  name: "0009_sku",
  statements: [
    `CREATE TABLE skus (
      id text PRIMARY KEY CHECK (id <> ''),
      schema_version integer NOT NULL,
      description text NOT NULL DEFAULT '',
      document jsonb NOT NULL CHECK (jsonb_typeof(document) = 'object'),
      created_at timestamptz NOT NULL
    )`,
    `CREATE TABLE machine_skus (
      machine_id text PRIMARY KEY REFERENCES machines ON DELETE CASCADE,
      sku_id text REFERENCES skus,
      assigned_by text CHECK (assigned_by IN ('operator', 'expectedMachine', 'matched')),
      assigned_at timestamptz,
      verify_requested_at timestamptz,
      verdict jsonb,
      verified_at timestamptz
    )`,
    `CREATE INDEX machine_skus_by_sku ON machine_skus (sku_id) WHERE sku_id IS NOT NULL`,
  ],
};
