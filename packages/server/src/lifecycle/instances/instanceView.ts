import type { Selectable } from "kysely";
import type { InstanceFabricTarget } from "../fabrics/index.js";
import type { InstanceConfig, InstancesTable, ReleaseIssue } from "../tables.js";
import type { ConfigsSynced } from "./syncStatus.js";
import type { TenantState } from "./tenantState.js";

export type InstanceRow = Selectable<InstancesTable>;

export interface InstanceStatusView {
  tenantState: TenantState;
  /** The host's lifecycle state label (e.g. assigned/waitingForNetworkConfig); null when it has none. */
  hostState: string | null;
  configsSynced: ConfigsSynced;
  /** The host's health alerts a tenant may see (with a tenant message, shown as that message). */
  healthAlerts: TenantHealthAlert[];
}

export interface TenantHealthAlert {
  id: string;
  target?: string;
  message: string;
}

/** An instance as the REST API returns it (and the gRPC Instance message carries). */
export interface InstanceView {
  id: string;
  name: string;
  machineId: string;
  tenantOrg: string;
  instanceType: string | null;
  config: InstanceConfig;
  configVersion: number;
  status: InstanceStatusView;
  createdAt: string;
  releaseRequestedAt: string | null;
  terminatedAt: string | null;
  releaseIssue: ReleaseIssue | null;
}

/** The instance as its fabrics see it: which host, which config (version). */
export function toFabricTarget(
  row: Pick<InstanceRow, "id" | "machine_id" | "tenant_org" | "config" | "config_version">,
): InstanceFabricTarget {
  return {
    hostId: row.machine_id,
    instanceId: row.id,
    tenantOrg: row.tenant_org,
    config: row.config,
    configVersion: row.config_version,
  };
}

export function toInstanceView(row: InstanceRow, status: InstanceStatusView): InstanceView {
  return {
    id: row.id,
    name: row.name,
    machineId: row.machine_id,
    tenantOrg: row.tenant_org,
    instanceType: row.instance_type,
    config: row.config,
    configVersion: row.config_version,
    status,
    createdAt: row.created_at.toISOString(),
    releaseRequestedAt: row.release_requested_at?.toISOString() ?? null,
    terminatedAt: row.terminated_at?.toISOString() ?? null,
    releaseIssue: row.release_issue,
  };
}
