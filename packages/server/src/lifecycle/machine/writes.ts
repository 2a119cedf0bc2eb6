import { sql, type Transaction } from "kysely";
import type { RacksmithDatabase } from "../../db/index.js";
import type { RebootRequest } from "../tables.js";

type Trx = Transaction<RacksmithDatabase>;

/** Deferred writes of the lifecycle's handlers: applied with the outcome in the final transaction. */

export async function recordRebootRequest(
  trx: Trx,
  machineId: string,
  request: RebootRequest,
): Promise<void> {
  const now = new Date(request.at);
  await trx
    .insertInto("machine_reports")
    .values({ machine_id: machineId, last_reboot_request: JSON.stringify(request), updated_at: now })
    .onConflict((oc) =>
      oc.column("machine_id").doUpdateSet({ last_reboot_request: JSON.stringify(request), updated_at: now }),
    )
    .execute();
}

/** Moves the host to or from the admin network; the new config version tells its DPU agents to apply it. */
export async function setAdminNetwork(
  trx: Trx,
  hostId: string,
  useAdminNetwork: boolean,
  now: Date,
): Promise<void> {
  await trx
    .insertInto("managed_hosts")
    .values({
      host_id: hostId,
      use_admin_network: useAdminNetwork,
      network_config_version: 2,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.column("host_id").doUpdateSet({
        use_admin_network: useAdminNetwork,
        network_config_version: sql<number>`managed_hosts.network_config_version + 1`,
        updated_at: now,
      }),
    )
    .execute();
}

export async function terminateInstance(trx: Trx, instanceId: string, now: Date): Promise<void> {
  await trx
    .updateTable("instances")
    .set({ terminated_at: now, updated_at: now })
    .where("id", "=", instanceId)
    .where("terminated_at", "is", null)
    .execute();
}

/** Removes a managed host, its DPUs and everything recorded about them (reports, instances, intents). */
export async function deleteManagedHost(trx: Trx, hostId: string): Promise<void> {
  await trx.deleteFrom("machines").where("host_id", "=", hostId).execute();
  await trx.deleteFrom("machines").where("id", "=", hostId).execute();
}
