import type { Kysely, Selectable } from "kysely";
import type { RacksmithDatabase } from "../../../../db/index.js";
import type { InstanceConfig } from "../../../../lifecycle/index.js";
import type { IbPartitionsTable } from "../tables.js";

export type IbPartitionRow = Selectable<IbPartitionsTable>;
type Db = Kysely<RacksmithDatabase>;

export async function readPartition(db: Db, id: string): Promise<IbPartitionRow | undefined> {
  return db.selectFrom("ib_partitions").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function readPartitions(db: Db, filter: { tenantOrg?: string } = {}): Promise<IbPartitionRow[]> {
  let query = db.selectFrom("ib_partitions").selectAll();
  if (filter.tenantOrg !== undefined) query = query.where("tenant_org", "=", filter.tenantOrg);
  return query.orderBy("created_at").orderBy("id").execute();
}

export async function usedPkeys(db: Db): Promise<Set<number>> {
  const rows = await db.selectFrom("ib_partitions").select("pkey").execute();
  return new Set(rows.map((row) => row.pkey));
}

/** Partitions the tenant holds (deleting ones count until they are gone, like their pkeys). */
export async function countForTenant(db: Db, tenantOrg: string): Promise<number> {
  const row = await db
    .selectFrom("ib_partitions")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("tenant_org", "=", tenantOrg)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Instances not yet terminated, with their config (the partitions they use, the host they are on). */
export async function liveInstances(db: Db): Promise<
  Array<{
    id: string;
    machine_id: string;
    tenant_org: string;
    config: InstanceConfig;
    release_requested_at: Date | null;
  }>
> {
  return db
    .selectFrom("instances")
    .select(["id", "machine_id", "tenant_org", "config", "release_requested_at"])
    .where("terminated_at", "is", null)
    .execute();
}

/** Ids of live instances whose config puts an interface in the partition. */
export async function partitionUsers(db: Db, partitionId: string): Promise<string[]> {
  const instances = await liveInstances(db);
  return instances
    .filter((instance) =>
      (instance.config.infiniband?.interfaces ?? []).some((iface) => iface.partitionId === partitionId),
    )
    .map((instance) => instance.id);
}
