import type { Kysely } from "kysely";
import type { RacksmithDatabase } from "../../../../db/index.js";
import type { MachineInventory } from "../../../../lifecycle/index.js";
import type { HostIbObservation, IbFabricHealth } from "./observation.js";

type Db = Kysely<RacksmithDatabase>;

export interface HostObservationRow {
  observation: HostIbObservation | null;
  cleanupGuids: string[];
  reportedAlerts: string[];
}

export async function readHostObservation(db: Db, hostId: string): Promise<HostObservationRow | undefined> {
  const row = await db
    .selectFrom("ib_host_observations")
    .selectAll()
    .where("machine_id", "=", hostId)
    .executeTakeFirst();
  return (
    row && {
      observation: row.observation,
      cleanupGuids: row.cleanup_guids,
      reportedAlerts: row.reported_alerts,
    }
  );
}

export async function readHostObservations(db: Db): Promise<Map<string, HostObservationRow>> {
  const rows = await db.selectFrom("ib_host_observations").selectAll().execute();
  return new Map(
    rows.map((row) => [
      row.machine_id,
      { observation: row.observation, cleanupGuids: row.cleanup_guids, reportedAlerts: row.reported_alerts },
    ]),
  );
}

/** Writes the given columns of the host's row (creating it). */
export async function writeHostObservation(
  db: Db,
  hostId: string,
  values: Partial<HostObservationRow>,
  now: Date,
): Promise<void> {
  const set = {
    ...(values.observation !== undefined ? { observation: JSON.stringify(values.observation) } : {}),
    ...(values.cleanupGuids !== undefined ? { cleanup_guids: JSON.stringify(values.cleanupGuids) } : {}),
    ...(values.reportedAlerts !== undefined
      ? { reported_alerts: JSON.stringify(values.reportedAlerts) }
      : {}),
    updated_at: now,
  };
  await db
    .insertInto("ib_host_observations")
    .values({ machine_id: hostId, cleanup_guids: "[]", reported_alerts: "[]", ...set })
    .onConflict((oc) => oc.column("machine_id").doUpdateSet(set))
    .execute();
}

export async function readFabricHealth(db: Db, fabric: string): Promise<IbFabricHealth | undefined> {
  const row = await db
    .selectFrom("ib_fabric_health")
    .select("health")
    .where("fabric", "=", fabric)
    .executeTakeFirst();
  return row?.health;
}

export async function writeFabricHealth(db: Db, health: IbFabricHealth, now: Date): Promise<void> {
  const text = JSON.stringify(health);
  await db
    .insertInto("ib_fabric_health")
    .values({ fabric: health.fabric, health: text, updated_at: now })
    .onConflict((oc) => oc.column("fabric").doUpdateSet({ health: text, updated_at: now }))
    .execute();
}

/** Hosts (not DPUs) whose agent reported IB ports, with those ports. */
export async function hostsWithIbPorts(
  db: Db,
): Promise<Array<{ hostId: string; ports: MachineInventory["ibPorts"] }>> {
  const rows = await db
    .selectFrom("machine_reports")
    .innerJoin("machines", "machines.id", "machine_reports.machine_id")
    .select(["machine_reports.machine_id", "machine_reports.inventory"])
    .where("machines.kind", "=", "host")
    .where("machine_reports.inventory", "is not", null)
    .execute();
  return rows
    .map((row) => ({ hostId: row.machine_id, ports: row.inventory?.ibPorts ?? [] }))
    .filter((host) => host.ports.length > 0);
}

export async function hostIbPorts(db: Db, hostId: string): Promise<MachineInventory["ibPorts"]> {
  const row = await db
    .selectFrom("machine_reports")
    .select("inventory")
    .where("machine_id", "=", hostId)
    .executeTakeFirst();
  return row?.inventory?.ibPorts ?? [];
}
