import { sql } from "kysely";
import type { Database } from "../../db/index.js";
import { MANAGED_HOST_OBJECT_TYPE } from "../../explorer/machineStore.js";

/**
 * Ready hosts with no live instance whose expected machine (same BMC MAC) has this SKU, in id order. Only
 * a hint: another allocation may take one first, which the insert's unique index settles.
 */
export async function allocationCandidates(database: Database, instanceType: string): Promise<string[]> {
  const rows = await database.db
    .selectFrom("machines")
    .innerJoin("expected_machines", "expected_machines.bmc_mac", "machines.bmc_mac")
    .innerJoin("state_objects", (join) =>
      join
        .on("state_objects.object_type", "=", MANAGED_HOST_OBJECT_TYPE)
        .onRef("state_objects.object_id", "=", "machines.id"),
    )
    .leftJoin("instances", (join) =>
      join.onRef("instances.machine_id", "=", "machines.id").on("instances.terminated_at", "is", null),
    )
    .select("machines.id")
    .where("machines.kind", "=", "host")
    .where("expected_machines.sku_id", "=", instanceType)
    .where(sql<string>`state_objects.state ->> 'state'`, "=", "ready")
    .where("instances.id", "is", null)
    .orderBy("machines.id")
    .execute();
  return rows.map((row) => row.id);
}
