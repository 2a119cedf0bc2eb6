import { type Kysely, type Selectable, sql } from "kysely";
import type { RacksmithDatabase } from "../../db/index.js";
import type { MachineRow } from "../../explorer/index.js";
import type { InstancesTable, MachineReportsTable, ManagedHostsTable } from "../tables.js";

export type MachineReports = Selectable<MachineReportsTable>;
export type InstanceRow = Selectable<InstancesTable>;

/** Everything a lifecycle handler reads about one managed host, loaded with one statement. */
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
  // One statement (its own snapshot, so no transaction: see `loadsInOneStatement`): a row per machine of the
  // host with its agent report, and the host's row with its managed-host settings and live instance. The
  // joined rows come as JSON, whose times are text: `withDates` makes the `*_at` columns Dates again.
  const { rows } = await sql<SnapshotRow>`
    select m.*, to_jsonb(r) as report, to_jsonb(mh) as managed, live.instance
    from machines m
    left join machine_reports r on r.machine_id = m.id
    left join managed_hosts mh on m.id = ${id} and mh.host_id = m.id
    left join lateral (
      select to_jsonb(i) as instance from instances i
      where m.id = ${id} and i.machine_id = m.id and i.terminated_at is null
      limit 1
    ) live on true
    where m.id = ${id} or m.host_id = ${id}
  `.execute(db);
  const hostRow = rows.find((row) => row.id === id && row.kind === "host");
  if (!hostRow) return undefined;
  const machineOf = ({ report: _report, managed: _managed, instance: _instance, ...machine }: SnapshotRow) =>
    machine as MachineRow;
  const dpus = rows
    .filter((row) => row.host_id === id)
    .map(machineOf)
    .sort((a, b) => Number(b.primary_dpu) - Number(a.primary_dpu) || a.id.localeCompare(b.id));
  const managed = hostRow.managed ? withDates<ManagedHostRow>(hostRow.managed) : undefined;
  const reports = rows.flatMap((row) => (row.report ? [withDates<MachineReports>(row.report)] : []));
  return {
    host: machineOf(hostRow),
    dpus,
    useAdminNetwork: managed?.use_admin_network ?? true,
    networkConfigVersion: managed?.network_config_version ?? 1,
    forceDeleteRequestedAt: managed?.force_delete_requested_at ?? null,
    reports: new Map(reports.map((r) => [r.machine_id, r])),
    instance: hostRow.instance ? withDates<InstanceRow>(hostRow.instance) : undefined,
  };
}

type ManagedHostRow = Selectable<ManagedHostsTable>;

/** A machine's columns, and as JSON its report and (on the host's row) its settings and live instance. */
interface SnapshotRow extends MachineRow {
  report: Record<string, unknown> | null;
  managed: Record<string, unknown> | null;
  instance: Record<string, unknown> | null;
}

/** A row read as JSON with its `*_at` columns (every timestamp column of these tables) as Dates. */
function withDates<T>(json: Record<string, unknown>): T {
  const row: Record<string, unknown> = { ...json };
  for (const [column, value] of Object.entries(row)) {
    if (column.endsWith("_at") && typeof value === "string") row[column] = new Date(value);
  }
  return row as T;
}
