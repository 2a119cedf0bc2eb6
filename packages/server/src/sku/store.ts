import type { MachineInventory, SkuDocument } from "@racksmith/core";
import { type Kysely, sql } from "kysely";
import { isUniqueViolation, type JsonObject, type RacksmithDatabase } from "../db/index.js";
import { MANAGED_HOST_OBJECT_TYPE } from "../explorer/index.js";
import type { BomVerdict } from "../lifecycle/index.js";
import { SkuExistsError, SkuInUseError } from "./errors.js";
import type { SkuAssigner } from "./tables.js";
import "./tables.js";

type Db = Kysely<RacksmithDatabase>;

export interface StoredSku {
  id: string;
  schemaVersion: number;
  description: string;
  document: JsonObject;
  createdAt: Date;
}

export interface HostSku {
  hostId: string;
  skuId: string | null;
  assignedBy: SkuAssigner | null;
  assignedAt: Date | null;
  verifyRequestedAt: Date | null;
  verdict: BomVerdict | null;
  verifiedAt: Date | null;
}

/** SKUs, host assignments and verdicts as stored; every method is one or two statements. */
export class SkuStore {
  constructor(private readonly db: Db) {}

  async list(): Promise<StoredSku[]> {
    const rows = await this.db.selectFrom("skus").selectAll().orderBy("id").execute();
    return rows.map(toSku);
  }

  async get(id: string): Promise<StoredSku | undefined> {
    const row = await this.db.selectFrom("skus").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? toSku(row) : undefined;
  }

  /** Host ids per SKU, for the SKUs named (all when omitted). */
  async hostsBySku(ids?: readonly string[]): Promise<Map<string, string[]>> {
    if (ids?.length === 0) return new Map();
    let query = this.db
      .selectFrom("machine_skus")
      .select(["sku_id", "machine_id"])
      .where("sku_id", "is not", null)
      .orderBy("machine_id");
    if (ids) query = query.where("sku_id", "in", [...ids]);
    const hosts = new Map<string, string[]>();
    for (const row of await query.execute()) {
      const list = hosts.get(row.sku_id as string) ?? [];
      list.push(row.machine_id);
      hosts.set(row.sku_id as string, list);
    }
    return hosts;
  }

  async insert(sku: SkuDocument, now: Date): Promise<StoredSku> {
    try {
      const row = await this.db
        .insertInto("skus")
        .values({
          id: sku.id,
          schema_version: sku.schemaVersion,
          description: sku.description,
          document: JSON.stringify(sku),
          created_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toSku(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw new SkuExistsError(sku.id);
      throw error;
    }
  }

  /** Deletes a SKU no host is assigned to; false when there is none with this id. */
  async delete(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      // Lock the SKU first: an assignment made meanwhile waits for this, then fails on the foreign key.
      const found = await trx
        .selectFrom("skus")
        .select("id")
        .where("id", "=", id)
        .forUpdate()
        .executeTakeFirst();
      if (!found) return false;
      const hosts = await trx
        .selectFrom("machine_skus")
        .select("machine_id")
        .where("sku_id", "=", id)
        .orderBy("machine_id")
        .execute();
      if (hosts.length > 0)
        throw new SkuInUseError(
          id,
          hosts.map((h) => h.machine_id),
        );
      await trx.deleteFrom("skus").where("id", "=", id).execute();
      return true;
    });
  }

  async hostSku(hostId: string): Promise<HostSku | undefined> {
    const row = await this.db
      .selectFrom("machine_skus")
      .selectAll()
      .where("machine_id", "=", hostId)
      .executeTakeFirst();
    return row
      ? {
          hostId: row.machine_id,
          skuId: row.sku_id,
          assignedBy: row.assigned_by,
          assignedAt: row.assigned_at,
          verifyRequestedAt: row.verify_requested_at,
          verdict: row.verdict,
          verifiedAt: row.verified_at,
        }
      : undefined;
  }

  /** The SKU id the host's expected machine names (by its BMC MAC); null when none does. */
  async expectedSkuId(hostId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom("machines")
      .innerJoin("expected_machines", "expected_machines.bmc_mac", "machines.bmc_mac")
      .select("expected_machines.sku_id")
      .where("machines.id", "=", hostId)
      .executeTakeFirst();
    return row?.sku_id || null;
  }

  /** Puts a SKU on a host (replacing any); `verify` also asks for the host to be verified again. */
  async assign(
    hostId: string,
    skuId: string | null,
    by: SkuAssigner | null,
    now: Date,
    options: { verify: boolean },
  ): Promise<void> {
    const assignment = { sku_id: skuId, assigned_by: by, assigned_at: skuId === null ? null : now };
    const request = options.verify ? { verify_requested_at: now } : {};
    await this.db
      .insertInto("machine_skus")
      .values({ machine_id: hostId, ...assignment, ...request })
      .onConflict((oc) => oc.column("machine_id").doUpdateSet({ ...assignment, ...request }))
      .execute();
  }

  async requestVerify(hostId: string, now: Date): Promise<void> {
    await this.db
      .insertInto("machine_skus")
      .values({ machine_id: hostId, verify_requested_at: now })
      .onConflict((oc) => oc.column("machine_id").doUpdateSet({ verify_requested_at: now }))
      .execute();
  }

  async recordVerdict(hostId: string, verdict: BomVerdict, now: Date): Promise<void> {
    const values = { verdict: JSON.stringify(verdict), verified_at: now };
    await this.db
      .insertInto("machine_skus")
      .values({ machine_id: hostId, ...values })
      .onConflict((oc) => oc.column("machine_id").doUpdateSet(values))
      .execute();
  }

  /** The inventory the host agent last reported for a host, or null. */
  async inventory(hostId: string): Promise<MachineInventory | null> {
    const row = await this.db
      .selectFrom("machine_reports")
      .select("inventory")
      .where("machine_id", "=", hostId)
      .executeTakeFirst();
    return row?.inventory ?? null;
  }

  /** Hosts waiting in BOM validation for an operator (an assignment, a SKU, a verification). */
  async hostsInBomWaits(): Promise<string[]> {
    const rows = await this.db
      .selectFrom("state_objects")
      .select("object_id")
      .where("object_type", "=", MANAGED_HOST_OBJECT_TYPE)
      .where(sql`state->>'state'`, "=", "bomValidating")
      .orderBy("object_id")
      .execute();
    return rows.map((row) => row.object_id);
  }

  /**
   * Hosts without a SKU that a new SKU may be matched to: Ready, or waiting for an assignment in BOM
   * validation; with their inventories.
   */
  async unassignedCandidates(): Promise<Array<{ hostId: string; inventory: MachineInventory }>> {
    const rows = await this.db
      .selectFrom("state_objects")
      .innerJoin("machine_reports", "machine_reports.machine_id", "state_objects.object_id")
      .leftJoin("machine_skus", "machine_skus.machine_id", "state_objects.object_id")
      .select(["state_objects.object_id as hostId", "machine_reports.inventory"])
      .where("state_objects.object_type", "=", MANAGED_HOST_OBJECT_TYPE)
      .where((eb) =>
        eb.or([
          eb(sql`state_objects.state->>'state'`, "=", "ready"),
          eb(sql`state_objects.state #>> '{bomState,step}'`, "=", "waitingForSkuAssignment"),
        ]),
      )
      .where("machine_skus.sku_id", "is", null)
      .where("machine_reports.inventory", "is not", null)
      .orderBy("state_objects.object_id")
      .execute();
    return rows.flatMap((row) => (row.inventory ? [{ hostId: row.hostId, inventory: row.inventory }] : []));
  }
}

function toSku(row: {
  id: string;
  schema_version: number;
  description: string;
  document: JsonObject;
  created_at: Date;
}): StoredSku {
  return {
    id: row.id,
    schemaVersion: row.schema_version,
    description: row.description,
    document: row.document,
    createdAt: row.created_at,
  };
}
