import type { JsonColumn, Timestamp } from "../db/index.js";
import type { DpuMode } from "./contracts.js";

/** One operator-declared machine, keyed by its normalised BMC MAC (migration 0002_inventory). */
export interface ExpectedMachinesTable {
  bmc_mac: string;
  bmc_address: string | null;
  /** The static address's IPv4 host, so DHCP never hands it to another BMC. */
  bmc_address_ipv4: number | null;
  factory_username: string | null;
  /** The password itself is in the credential store ({ kind: "bmc-factory", mac }). */
  has_factory_password: boolean;
  chassis_serial: string;
  fallback_dpu_serials: JsonColumn<string[]>;
  dpu_mode: DpuMode;
  driver: string | null;
  labels: JsonColumn<Record<string, string>>;
  sku_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The address handed to a BMC MAC: from the underlay pool, or an expected machine's static address. */
export interface DhcpLeasesTable {
  mac: string;
  address: string;
  /** The address as a number (pool addresses and IPv4 static ones); unique among pool leases. */
  address_ipv4: number | null;
  vendor_class: string | null;
  relay: string | null;
  static: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

declare module "@racksmith/core/engine" {
  interface EngineTables {
    expected_machines: ExpectedMachinesTable;
    dhcp_leases: DhcpLeasesTable;
  }
}
