import type { Logger } from "@racksmith/core";
import type { StateEngine } from "@racksmith/core/engine";
import { sql } from "kysely";
import type { Database } from "../../db/index.js";
import { enqueueHost } from "../agents/enqueueHost.js";
import { requireMachine } from "../agents/machineLookup.js";

export interface LifecycleApiDeps {
  database: Database;
  engine: Pick<StateEngine, "enqueue">;
  logger: Logger;
  clock?: () => Date;
}

/**
 * Records the intent to remove a managed host (a DPU id stands for its host) and wakes its lifecycle, which
 * carries it out. Idempotent: a repeated request keeps the first request's time.
 */
export async function requestForceDelete(
  deps: LifecycleApiDeps,
  machineId: string,
): Promise<{ hostId: string }> {
  const { hostId } = await requireMachine(deps.database.db, machineId);
  const now = (deps.clock ?? (() => new Date()))();
  // A host whose rows go meanwhile (an earlier deletion finishing) fails this insert: the API answers 404.
  await deps.database.db
    .insertInto("managed_hosts")
    .values({ host_id: hostId, force_delete_requested_at: now, updated_at: now })
    .onConflict((conflict) =>
      conflict.column("host_id").doUpdateSet({
        force_delete_requested_at: sql<Date>`coalesce(managed_hosts.force_delete_requested_at, ${now}::timestamptz)`,
        updated_at: now,
      }),
    )
    .execute();
  await enqueueHost(deps.engine, hostId, deps.logger);
  deps.logger.info({ hostId, machineId }, "force deletion requested");
  return { hostId };
}
