import type { ExplorationReport } from "@racksmith/core";
import type { ColumnType } from "kysely";
import type { JsonColumn, Timestamp } from "../db/index.js";
import type { ExplorationFailure } from "./explorationFailure.js";
import type { EndpointFinding } from "./findings.js";
import type { IngestionStatus } from "./ingestion.js";
import type { MachineKind } from "./machineIds.js";
import type { ManagedHostDpu } from "./views.js";

type Defaulted<T> = ColumnType<T, T | undefined, T>;
/** A nullable jsonb column: read as parsed JSON, written as JSON text or null. */
type NullableJson<T> = ColumnType<T | null, string | null, string | null>;

/** One BMC the explorer knows (migration 0003_site_explorer): its last report, last error and safety counters. */
export interface ExploredEndpointsTable {
  address: string;
  bmc_mac: string | null;
  vendor: string | null;
  driver: string | null;
  report: NullableJson<ExplorationReport>;
  /** Bumped each time a report is stored. */
  report_version: Defaulted<number>;
  last_error: NullableJson<ExplorationFailure>;
  last_explored_at: Timestamp | null;
  latency_ms: number | null;
  exploration_requested: Defaulted<boolean>;
  findings: JsonColumn<EndpointFinding[]>;
  /** Consecutive failed logins and when the last one happened (avoid_lockout). */
  auth_failures: Defaulted<number>;
  last_auth_failure_at: Timestamp | null;
  last_power_on_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The pairing and ingestion verdict of each explored host BMC, replaced at every run. */
export interface ExploredManagedHostsTable {
  host_address: string;
  status: IngestionStatus;
  code: string | null;
  reason: string | null;
  machine_id: string | null;
  serial: string | null;
  dpus: JsonColumn<ManagedHostDpu[]>;
  updated_at: Timestamp;
}

/** Managed hosts and their DPUs; ids derive from serials, so a machine is never ingested twice. */
export interface MachinesTable {
  id: string;
  kind: MachineKind;
  serial: string;
  bmc_address: string;
  bmc_mac: string;
  host_id: string | null;
  /** DPU: its pf0 MAC as the host sees it. */
  host_facing_mac: string | null;
  primary_dpu: Defaulted<boolean>;
  vendor: string | null;
  model: string | null;
  created_at: Timestamp;
}

declare module "@racksmith/core/engine" {
  interface EngineTables {
    explored_endpoints: ExploredEndpointsTable;
    explored_managed_hosts: ExploredManagedHostsTable;
    machines: MachinesTable;
  }
}
