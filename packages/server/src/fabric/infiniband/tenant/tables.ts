import type { ColumnType } from "kysely";
import type { Timestamp } from "../../../db/index.js";
import type { HostIbObservation, IbFabricHealth } from "./monitor/observation.js";

type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;
type Json<T> = ColumnType<T, string, string>;

/** A tenant's InfiniBand partition (migration 0006_infiniband); its lifecycle state lives on the engine. */
export interface IbPartitionsTable {
  id: string;
  name: string;
  tenant_org: string;
  /** Unique: the pool is the set of pkeys in the configured ranges minus this column. */
  pkey: number;
  requested_pkey: number | null;
  deleted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: Timestamp;
}

/** Per host: what the IB fabric monitor last saw of its GUIDs, and what is left to clean up. */
export interface IbHostObservationsTable {
  machine_id: string;
  observation: NullableJson<HostIbObservation>;
  /** GUIDs a release could not unbind while the fabric was unreachable (IbCleanupPending). */
  cleanup_guids: Json<string[]>;
  /** The alerts last recorded in the host's health report (recorded again only when they change). */
  reported_alerts: Json<string[]>;
  updated_at: Timestamp;
}

/** One row per fabric: the monitor's last contact (reachable, version, security findings). */
export interface IbFabricHealthTable {
  fabric: string;
  health: Json<IbFabricHealth>;
  updated_at: Timestamp;
}

declare module "@racksmith/core/engine" {
  interface EngineTables {
    ib_partitions: IbPartitionsTable;
    ib_host_observations: IbHostObservationsTable;
    ib_fabric_health: IbFabricHealthTable;
  }
}
