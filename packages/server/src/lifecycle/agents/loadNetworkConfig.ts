import type { Database } from "../../db/index.js";
import { DpuNotFoundError } from "./errors.js";
import {
  DEFAULT_HOST_NETWORK,
  desiredNetworkConfig,
  type ManagedHostNetworkConfig,
} from "./networkConfig.js";

/**
 * Reads what `desiredNetworkConfig` needs for one DPU in one statement (every DPU agent asks on every poll):
 * the DPU, its host's network row and the host's live instance.
 */
export async function loadNetworkConfig(
  database: Database,
  dpuId: string,
): Promise<ManagedHostNetworkConfig> {
  const row = await database.db
    .selectFrom("machines as dpu")
    .leftJoin("managed_hosts as host", "host.host_id", "dpu.host_id")
    .leftJoin("instances as instance", (join) =>
      join.onRef("instance.machine_id", "=", "dpu.host_id").on("instance.terminated_at", "is", null),
    )
    .select([
      "dpu.id",
      "dpu.kind",
      "dpu.host_id",
      "dpu.primary_dpu",
      "host.use_admin_network",
      "host.network_config_version",
      "instance.id as instance_id",
      "instance.config",
      "instance.config_version",
    ])
    .where("dpu.id", "=", dpuId)
    .executeTakeFirst();
  if (!row) throw new DpuNotFoundError(dpuId);
  if (row.kind !== "dpu" || !row.host_id) throw new DpuNotFoundError(dpuId, "it is a host, not a DPU");
  const { use_admin_network, network_config_version, instance_id, config, config_version } = row;
  return desiredNetworkConfig({
    dpu: { id: row.id, hostId: row.host_id, primary: row.primary_dpu },
    host:
      use_admin_network === null || network_config_version === null
        ? DEFAULT_HOST_NETWORK
        : { useAdminNetwork: use_admin_network, networkConfigVersion: network_config_version },
    instance:
      instance_id === null || config === null || config_version === null
        ? undefined
        : { id: instance_id, config, configVersion: config_version, terminatedAt: null },
  });
}
