import type { MachineInventory, ValidationResult } from "@racksmith/core";
import type { HealthReport } from "@racksmith/core/health";
import type { ColumnType } from "kysely";
import type { Timestamp } from "../db/index.js";

type Defaulted<T> = ColumnType<T, T | undefined, T>;
/** A nullable jsonb column: read as parsed JSON, written as JSON text or null. */
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

/** Per managed host (migration 0004_lifecycle): network config version and the APIs' recorded intents. */
export interface ManagedHostsTable {
  host_id: string;
  use_admin_network: Defaulted<boolean>;
  /** Bumped whenever the desired network config of the host's DPUs changes. */
  network_config_version: Defaulted<number>;
  force_delete_requested_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  updated_at: Timestamp;
}

/** A reboot the lifecycle asked a BMC for: what and when (the reboot/backoff helper counts from it). */
export interface RebootRequest {
  /** When the BMC accepted it. */
  at: string;
  action: "ForceRestart" | "ForceOff" | "On" | "ACPowercycle";
  /** The wait's reboot cycle it belongs to; absent for a state's own power action. */
  cycle?: number;
}

/** An interface as the DPU agent sees it. */
export interface InterfaceObservation {
  function: string;
  network: string;
  linkUp: boolean;
}

/** The DPU agent's last `RecordDpuNetworkStatus`. */
export interface DpuNetworkObservation {
  observedAt: string;
  appliedManagedHostConfigVersion: number;
  appliedInstanceConfigVersion: number | null;
  interfaces: InterfaceObservation[];
  health: HealthReport;
  agentVersion: string;
}

export interface CleanupResult {
  success: boolean;
  message: string;
}

/** Per host or DPU: what its agent last reported (times are the service's clock at receipt). */
export interface MachineReportsTable {
  machine_id: string;
  inventory: NullableJson<MachineInventory>;
  discovered_at: Timestamp | null;
  discovery_completed_at: Timestamp | null;
  reboot_completed_at: Timestamp | null;
  cleanup_completed_at: Timestamp | null;
  cleanup_result: NullableJson<CleanupResult>;
  validation_completed_at: Timestamp | null;
  validation_result: NullableJson<ValidationResult>;
  network_status: NullableJson<DpuNetworkObservation>;
  network_status_at: Timestamp | null;
  last_contact_at: Timestamp | null;
  last_reboot_request: NullableJson<RebootRequest>;
  updated_at: Timestamp;
}

export interface InstanceInterface {
  function: string;
  network: string;
}

/** One InfiniBand port of the host put into a tenant partition (NICo's InstanceIbInterfaceConfig). */
export interface InstanceInfiniBandInterface {
  /** The HCA model as the host agent lists it, e.g. "MT2910 Family [ConnectX-7]". */
  device: string;
  /** Which of the host's devices of that model (0-based, in the agent's order). */
  deviceInstance: number;
  /** A virtual function of the port; null for the physical function. */
  virtualFunction: number | null;
  /** The IB partition (core object id) the port joins. */
  partitionId: string;
}

/** One GPU of the host put into a tenant's NVLink logical partition. */
export interface InstanceNvLinkGpu {
  /** Which of the host's GPUs (0-based, in the agent's order). */
  deviceInstance: number;
  logicalPartitionId: string;
}

/**
 * What a tenant configures on an instance: its DPU network interfaces and, when those fabrics are
 * configured, its InfiniBand ports and NVLink GPUs.
 */
export interface InstanceConfig {
  network: { interfaces: InstanceInterface[] };
  infiniband?: { interfaces: InstanceInfiniBandInterface[] };
  nvlink?: { gpus: InstanceNvLinkGpu[] };
}

export interface ReleaseIssue {
  category: string;
  summary: string;
}

export interface InstancesTable {
  id: string;
  name: string;
  machine_id: string;
  tenant_org: string;
  instance_type: string | null;
  config: ColumnType<InstanceConfig, string, string>;
  config_version: Defaulted<number>;
  release_requested_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  release_issue: NullableJson<ReleaseIssue>;
  terminated_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

declare module "@racksmith/core/engine" {
  interface EngineTables {
    managed_hosts: ManagedHostsTable;
    machine_reports: MachineReportsTable;
    instances: InstancesTable;
  }
}
