import type { Database } from "../../db/index.js";
import { DpuNotFoundError } from "./errors.js";
import {
  DEFAULT_HOST_NETWORK,
  desiredNetworkConfig,
  type ManagedHostNetworkConfig,
} from "./networkConfig.js";

/** Reads what `desiredNetworkConfig` needs for one DPU: the DPU, its host's network row and live instance. */
export async function loadNetworkConfig(
  database: Database,
  dpuId: string,
): Promise<ManagedHostNetworkConfig> {
  const { db } = database;
  const dpu = await db
    .selectFrom("machines")
    .select(["id", "kind", "host_id", "primary_dpu"])
    .where("id", "=", dpuId)
    .executeTakeFirst();
  if (!dpu) throw new DpuNotFoundError(dpuId);
  if (dpu.kind !== "dpu" || !dpu.host_id) throw new DpuNotFoundError(dpuId, "it is a host, not a DPU");
  const hostId = dpu.host_id;
  const [host, instance] = await Promise.all([
    db
      .selectFrom("managed_hosts")
      .select(["use_admin_network", "network_config_version"])
      .where("host_id", "=", hostId)
      .executeTakeFirst(),
    db
      .selectFrom("instances")
      .select(["id", "config", "config_version", "terminated_at"])
      .where("machine_id", "=", hostId)
      .where("terminated_at", "is", null)
      .executeTakeFirst(),
  ]);
  return desiredNetworkConfig({
    dpu: { id: dpu.id, hostId, primary: dpu.primary_dpu },
    host: host
      ? { useAdminNetwork: host.use_admin_network, networkConfigVersion: host.network_config_version }
      : DEFAULT_HOST_NETWORK,
    instance: instance && {
      id: instance.id,
      config: instance.config,
      configVersion: instance.config_version,
      terminatedAt: instance.terminated_at,
    },
  });
}
