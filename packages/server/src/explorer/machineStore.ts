import { type Kysely, type Selectable, sql, type Transaction } from "kysely";
import type { RacksmithDatabase } from "../db/index.js";
import type { MachineKind } from "./machineIds.js";
import type { MachinesTable } from "./tables.js";
import type { MachineView } from "./views.js";

type Db = Kysely<RacksmithDatabase>;
export type MachineRow = Selectable<MachinesTable>;

/** The object type of managed hosts in the state engine (their DPUs share the host's state). */
export const MANAGED_HOST_OBJECT_TYPE = "managed-host";

export interface NewMachine {
  id: string;
  kind: MachineKind;
  serial: string;
  bmcAddress: string;
  bmcMac: string;
  hostId: string | null;
  hostFacingMac: string | null;
  primaryDpu: boolean;
  vendor: string | null;
  model: string | null;
}

/** Managed hosts and DPUs as stored, and the lookups ingestion needs. */
export class MachineStore {
  constructor(private readonly db: Db) {}

  /** Inserts a host and its DPUs in the caller's transaction; false (nothing written) if any already exists. */
  async insertManagedHost(
    trx: Transaction<RacksmithDatabase>,
    machines: readonly NewMachine[],
    createdAt: Date,
  ): Promise<boolean> {
    const existing = await trx
      .selectFrom("machines")
      .select("id")
      .where((eb) =>
        eb.or([
          eb(
            "id",
            "in",
            machines.map((m) => m.id),
          ),
          eb(
            "bmc_mac",
            "in",
            machines.map((m) => m.bmcMac),
          ),
        ]),
      )
      .executeTakeFirst();
    if (existing) return false;
    await trx
      .insertInto("machines")
      .values(
        machines.map((m) => ({
          id: m.id,
          kind: m.kind,
          serial: m.serial,
          bmc_address: m.bmcAddress,
          bmc_mac: m.bmcMac,
          host_id: m.hostId,
          host_facing_mac: m.hostFacingMac,
          primary_dpu: m.primaryDpu,
          vendor: m.vendor,
          model: m.model,
          created_at: createdAt,
        })),
      )
      .execute();
    return true;
  }

  /** BMC MACs of managed hosts, and serials of DPUs attached to one. */
  async ingestedFacts(): Promise<{
    hostMacs: Set<string>;
    hostIdsByMac: Map<string, string>;
    dpuSerials: Set<string>;
  }> {
    const rows = await this.db.selectFrom("machines").select(["id", "kind", "bmc_mac", "serial"]).execute();
    const hostIdsByMac = new Map(rows.filter((r) => r.kind === "host").map((r) => [r.bmc_mac, r.id]));
    return {
      hostMacs: new Set(hostIdsByMac.keys()),
      hostIdsByMac,
      dpuSerials: new Set(rows.filter((r) => r.kind === "dpu").map((r) => r.serial)),
    };
  }

  /** Every machine with its managed host's state tag, hosts and DPUs in id order. */
  async list(): Promise<MachineView[]> {
    const rows = await this.selectWithState().orderBy("machines.id").execute();
    return toViews(rows);
  }

  /** One machine, with its host's DPUs (or its DPU siblings' host) for the view. */
  async get(id: string): Promise<{ view: MachineView; row: MachineRow } | undefined> {
    const row = await this.db.selectFrom("machines").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) return undefined;
    const hostId = row.host_id ?? row.id;
    const family = await this.selectWithState()
      .where((eb) => eb.or([eb("machines.id", "=", hostId), eb("machines.host_id", "=", hostId)]))
      .orderBy("machines.id")
      .execute();
    const view = toViews(family).find((v) => v.id === id);
    return view && { view, row };
  }

  private selectWithState() {
    return this.db
      .selectFrom("machines")
      .leftJoin("state_objects", (join) =>
        join
          .on("state_objects.object_type", "=", MANAGED_HOST_OBJECT_TYPE)
          .on("state_objects.object_id", "=", sql<string>`coalesce(machines.host_id, machines.id)`),
      )
      .selectAll("machines")
      .select(sql<string | null>`state_objects.state ->> 'state'`.as("state_tag"));
  }
}

type RowWithState = MachineRow & { state_tag: string | null };

function toViews(rows: readonly RowWithState[]): MachineView[] {
  const dpusOf = new Map<string, RowWithState[]>();
  for (const row of rows) {
    if (row.host_id) dpusOf.set(row.host_id, [...(dpusOf.get(row.host_id) ?? []), row]);
  }
  return rows.map((row) => {
    const base = {
      id: row.id,
      kind: row.kind,
      state: row.state_tag,
      bmcAddress: row.bmc_address,
      bmcMac: row.bmc_mac,
      serial: row.serial,
    };
    if (row.kind === "dpu") return { ...base, host: row.host_id ?? "" };
    const dpus = dpusOf.get(row.id) ?? [];
    return { ...base, dpus: dpus.map((d) => d.id), primaryDpu: dpus.find((d) => d.primary_dpu)?.id ?? null };
  });
}
