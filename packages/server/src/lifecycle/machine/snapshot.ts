import type { Kysely, Selectable } from "kysely";
import type { RacksmithDatabase } from "../../db/index.js";
import type { MachineRow } from "../../explorer/index.js";
import type { InstancesTable, MachineReportsTable } from "../tables.js";

export type MachineReports = Selectable<MachineReportsTable>;
export type InstanceRow = Selectable<InstancesTable>;

/** Everything a lifecycle handler reads about one managed host, loaded in one short transaction. */
export interface ManagedHostSnapshot {
  host: MachineRow;
  /** The host's DPUs, primary first. */
  dpus: MachineRow[];
  useAdminNetwork: boolean;
  networkConfigVersion: number;
  forceDeleteRequestedAt: Date | null;
  /** Agent reports per machine id (host and DPUs); absent until the machine's agent said something. */
  reports: ReadonlyMap<string, MachineReports>;
  /** The live (not terminated) instance on the host. */
  instance: InstanceRow | undefined;
}

/** Loads a managed host's snapshot; undefined when the host no longer exists. */
export async function loadManagedHost(
  id: string,
  db: Kysely<RacksmithDatabase>,
): Promise<ManagedHostSnapshot | undefined> {
  const machines = await db
    .selectFrom("machines")
    .selectAll()
    .where((eb) => eb.or([eb("id", "=", id), eb("host_id", "=", id)]))
    .execute();
  const host = machines.find((m) => m.id === id && m.kind === "host");
  if (!host) return undefined;
  const dpus = machines
    .filter((m) => m.host_id === id)
    .sort((a, b) => Number(b.primary_dpu) - Number(a.primary_dpu) || a.id.localeCompare(b.id));
  const [managed, reports, instance] = await Promise.all([
    db.selectFrom("managed_hosts").selectAll().where("host_id", "=", id).executeTakeFirst(),
    db
      .selectFrom("machine_reports")
      .selectAll()
      .where(
        "machine_id",
        "in",
        machines.map((m) => m.id),
      )
      .execute(),
    db
      .selectFrom("instances")
      .selectAll()
      .where("machine_id", "=", id)
      .where("terminated_at", "is", null)
      .executeTakeFirst(),
  ]);
  return {
    host,
    dpus,
    useAdminNetwork: managed?.use_admin_network ?? true,
    networkConfigVersion: managed?.network_config_version ?? 1,
    forceDeleteRequestedAt: managed?.force_delete_requested_at ?? null,
    reports: new Map(reports.map((r) => [r.machine_id, r])),
    instance,
  };
}
