import type { Migration } from "./migration.js";

/** Expected machines, DHCP leases (issue 5). Factory passwords live in the credential store, not here. */
export const inventory: Migration = {
  name: "0002_inventory",
  statements: [
    `CREATE TABLE expected_machines (
      bmc_mac text PRIMARY KEY,
      bmc_address text,
      bmc_address_ipv4 bigint,
      factory_username text,
      has_factory_password boolean NOT NULL DEFAULT false,
      chassis_serial text NOT NULL CHECK (chassis_serial <> ''),
      fallback_dpu_serials jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(fallback_dpu_serials) = 'array'),
      dpu_mode text NOT NULL DEFAULT 'dpu' CHECK (dpu_mode IN ('dpu', 'nic', 'no-dpu')),
      driver text,
      labels jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(labels) = 'object'),
      sku_id text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`,
    `CREATE INDEX expected_machines_by_ipv4 ON expected_machines (bmc_address_ipv4)
      WHERE bmc_address_ipv4 IS NOT NULL`,
    `CREATE TABLE dhcp_leases (
      mac text PRIMARY KEY,
      address text NOT NULL,
      address_ipv4 bigint,
      vendor_class text,
      relay text,
      static boolean NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`,
    `CREATE UNIQUE INDEX dhcp_leases_pool_address ON dhcp_leases (address_ipv4) WHERE NOT static`,
    `CREATE INDEX dhcp_leases_by_ipv4 ON dhcp_leases (address_ipv4)`,
  ],
};
