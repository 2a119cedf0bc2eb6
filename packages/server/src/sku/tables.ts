import type { ColumnType } from "kysely";
import type { JsonColumn, JsonObject, Timestamp } from "../db/index.js";
import type { BomVerdict } from "../lifecycle/index.js";

type NullableTimestamp = ColumnType<Date | null, Date | null | undefined, Date | null>;

/** Who put a SKU on a host: an operator, its expected machine's SKU id, or a match found by the service. */
export const SKU_ASSIGNERS = ["operator", "expectedMachine", "matched"] as const;
export type SkuAssigner = (typeof SKU_ASSIGNERS)[number];

/** A SKU as the plugin's rules parsed it (migration 0009_sku). */
export interface SkusTable {
  id: string;
  schema_version: number;
  description: string;
  document: JsonColumn<JsonObject>;
  created_at: Timestamp;
}

/** Per host: its SKU, the last request to verify it again, and the last verdict. */
export interface MachineSkusTable {
  machine_id: string;
  sku_id: ColumnType<string | null, string | null | undefined, string | null>;
  assigned_by: ColumnType<SkuAssigner | null, SkuAssigner | null | undefined, SkuAssigner | null>;
  assigned_at: NullableTimestamp;
  verify_requested_at: NullableTimestamp;
  verdict: ColumnType<BomVerdict | null, string | null | undefined, string | null>;
  verified_at: NullableTimestamp;
}

declare module "@racksmith/core/engine" {
  interface EngineTables {
    skus: SkusTable;
    machine_skus: MachineSkusTable;
  }
}
