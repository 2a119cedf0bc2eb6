import type { StateEngine } from "@racksmith/core/engine";
import type { Database } from "../../db/index.js";
import { stateLabelOf } from "../../explorer/machineLifecycle.js";
import { MANAGED_HOST_OBJECT_TYPE } from "../../explorer/machineStore.js";
import { DEFAULT_HOST_NETWORK } from "../agents/networkConfig.js";
import type { InstanceFabric } from "../fabrics/index.js";
import type { ManagedHostState } from "../states.js";
import { type InstanceRow, type InstanceStatusView, toFabricTarget } from "./instanceView.js";
import { configsSynced, type NetworkConfigSyncedInput, networkConfigSynced } from "./syncStatus.js";
import { tenantState } from "./tenantState.js";

/** What a host contributes to its instances' status, read once per host. */
interface HostFacts {
  state: ManagedHostState | undefined;
  networkConfigVersion: number;
  dpus: NetworkConfigSyncedInput["dpus"];
}

/**
 * The status of each instance, derived now from its host's lifecycle state, network config version and
 * DPU reports (never stored: it cannot go stale). One batch of reads per call, whatever the count.
 */
export async function instanceStatuses(
  database: Database,
  engine: Pick<StateEngine, "getObjectState">,
  rows: readonly InstanceRow[],
  fabrics: readonly InstanceFabric[] = [],
): Promise<Array<Omit<InstanceStatusView, "healthAlerts">>> {
  const hosts = await readHostFacts(database, engine, [...new Set(rows.map((row) => row.machine_id))]);
  return Promise.all(
    rows.map(async (row) => {
      const host = hosts.get(row.machine_id);
      const synced = configsSynced({
        network: networkConfigSynced({
          dpus: host?.dpus ?? [],
          networkConfigVersion: host?.networkConfigVersion ?? DEFAULT_HOST_NETWORK.networkConfigVersion,
          instanceConfigVersion: row.config_version,
        }),
        ...(await fabricsSynced(fabrics, row)),
      });
      return {
        tenantState: tenantState({
          instance: {
            id: row.id,
            releaseRequestedAt: row.release_requested_at,
            terminatedAt: row.terminated_at,
          },
          hostState: host?.state,
          configsSyncedAggregate: synced.aggregate,
        }),
        hostState: host?.state ? stateLabelOf(host.state) : null,
        configsSynced: synced,
      };
    }),
  );
}

/** Each configured fabric's sync of a live instance (a terminated one has nothing left to sync). */
async function fabricsSynced(
  fabrics: readonly InstanceFabric[],
  row: InstanceRow,
): Promise<Record<string, boolean>> {
  if (row.terminated_at) return {};
  const target = toFabricTarget(row);
  const entries = await Promise.all(
    fabrics.map(async (fabric) => [fabric.name, (await fabric.syncProblems(target)).length === 0] as const),
  );
  return Object.fromEntries(entries);
}

async function readHostFacts(
  database: Database,
  engine: Pick<StateEngine, "getObjectState">,
  hostIds: readonly string[],
): Promise<Map<string, HostFacts>> {
  if (hostIds.length === 0) return new Map();
  const { db } = database;
  const hostRows = await db
    .selectFrom("managed_hosts")
    .select(["host_id", "network_config_version"])
    .where("host_id", "in", [...hostIds])
    .execute();
  const dpuRows = await db
    .selectFrom("machines")
    .leftJoin("machine_reports", "machine_reports.machine_id", "machines.id")
    .select(["machines.id", "machines.host_id", "machines.primary_dpu", "machine_reports.network_status"])
    .where("machines.host_id", "in", [...hostIds])
    .orderBy("machines.id")
    .execute();
  const versions = new Map(hostRows.map((row) => [row.host_id, row.network_config_version]));
  const facts = new Map<string, HostFacts>();
  for (const hostId of hostIds) {
    const object = await engine.getObjectState(MANAGED_HOST_OBJECT_TYPE, hostId, { historyLimit: 0 });
    facts.set(hostId, {
      state: object?.state as ManagedHostState | undefined,
      networkConfigVersion: versions.get(hostId) ?? DEFAULT_HOST_NETWORK.networkConfigVersion,
      dpus: dpuRows
        .filter((dpu) => dpu.host_id === hostId)
        .map((dpu) => ({ id: dpu.id, primary: dpu.primary_dpu, observation: dpu.network_status ?? null })),
    });
  }
  return facts;
}
