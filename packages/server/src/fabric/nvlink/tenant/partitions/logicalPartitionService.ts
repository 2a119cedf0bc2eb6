import { randomBytes } from "node:crypto";
import { InvalidArgumentError } from "@racksmith/core";
import { listedTenantOrg, quoted, tenantOrgFor, visibleToTenant } from "../../../../api/index.js";
import type { Database } from "../../../../db/index.js";
import type { NvLinkGpuObservation, NvLinkOperationOutcome } from "../tables.js";
import { LogicalPartitionInUseError, LogicalPartitionNotFoundError } from "./errors.js";
import type { LogicalPartitionView, PhysicalPartitionView } from "./partitionView.js";

export interface CreateLogicalPartitionInput {
  name?: string | undefined;
  tenantOrg: string;
}

const FAILED: readonly NvLinkOperationOutcome[] = ["failed", "timedout", "cancelled", "error"];
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
/** A valid name is at most 63 characters: quote that much of a bad one. */
const NAME_EXCERPT_LENGTH = 64;

/**
 * Tenants' NVLink logical partitions. Creating one makes it Ready at once (NMX-M partitions are made per
 * domain when GPUs join); deleting one marks it and the monitor removes its physical partitions, then it.
 */
export class LogicalPartitionService {
  private readonly clock: () => Date;

  constructor(
    private readonly deps: {
      database: Database;
      clock?: () => Date;
      /** Asks the monitor for a pass soon (a deletion to carry out). */
      wake?: () => void;
    },
  ) {
    this.clock = deps.clock ?? (() => new Date());
  }

  /** `scope`: the tenant org a tenant caller is limited to; it may create for it only. */
  async create(input: CreateLogicalPartitionInput, scope?: string): Promise<LogicalPartitionView> {
    const requested = typeof input.tenantOrg === "string" ? input.tenantOrg.trim() : "";
    const tenantOrg = tenantOrgFor(scope, requested || undefined) ?? "";
    if (!tenantOrg)
      throw new InvalidArgumentError("tenantOrg: must be a non-empty organisation id", {
        details: { field: "tenantOrg" },
      });
    const id = `nvlp-${randomBytes(8).toString("hex")}`;
    const name = input.name === undefined || input.name.trim() === "" ? id : input.name.trim();
    if (!NAME.test(name)) {
      throw new InvalidArgumentError(
        `name: ${quoted(name, NAME_EXCERPT_LENGTH)} must be 1-63 letters, digits, '.', '_' or '-', starting with a letter or digit`,
        { details: { field: "name" } },
      );
    }
    const now = this.clock();
    await this.deps.database.db
      .insertInto("nvlink_logical_partitions")
      .values({ id, name, tenant_org: tenantOrg, deleted_at: null, created_at: now, updated_at: now })
      .execute();
    return this.get(id);
  }

  /** A tenant caller's (`scope`) own org's only. */
  async list(
    query: { tenantOrg?: string | undefined } = {},
    scope?: string,
  ): Promise<LogicalPartitionView[]> {
    const tenantOrg = listedTenantOrg(scope, query.tenantOrg || undefined);
    if (tenantOrg === null) return [];
    let select = this.deps.database.db
      .selectFrom("nvlink_logical_partitions")
      .select("id")
      .orderBy("created_at");
    if (tenantOrg !== undefined) select = select.where("tenant_org", "=", tenantOrg);
    const rows = await select.execute();
    return Promise.all(rows.map((row) => this.get(row.id)));
  }

  /** Another org's is not found for a tenant caller (`scope`), as if it did not exist. */
  async get(id: string, scope?: string): Promise<LogicalPartitionView> {
    const { db } = this.deps.database;
    const row = await db
      .selectFrom("nvlink_logical_partitions")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row || !visibleToTenant(scope, row.tenant_org)) throw new LogicalPartitionNotFoundError(id);
    const physical = await db
      .selectFrom("nvlink_physical_partitions")
      .selectAll()
      .where("logical_partition_id", "=", id)
      .orderBy("domain")
      .execute();
    const members = await this.observedMembers(id);
    const failures = await db
      .selectFrom("nvlink_operations")
      .selectAll()
      .where("target", "=", id)
      .where("status", "in", [...FAILED])
      .execute();
    const physicalPartitions: PhysicalPartitionView[] = physical.map((p) => ({
      domain: p.domain,
      nmxmId: p.nmxm_id,
      number: p.number,
      name: p.name,
      gpus: (members.get(p.nmxm_id) ?? []).sort(),
    }));
    const failure = failures[0];
    return {
      id: row.id,
      name: row.name,
      tenant: row.tenant_org,
      state: row.deleted_at ? "Deleting" : failure ? "Error" : "Ready",
      ...(failure && !row.deleted_at
        ? {
            reason: `operation ${failure.operation_id ?? "(not started)"} ${failure.status}: ${failure.error ?? ""}`,
          }
        : {}),
      physicalPartitions,
      createdAt: row.created_at.toISOString(),
      deletedAt: row.deleted_at ? row.deleted_at.toISOString() : null,
    };
  }

  /** Refused while a live instance configures it; otherwise marked, and the monitor cleans it up. */
  async delete(id: string, scope?: string): Promise<LogicalPartitionView> {
    const { db } = this.deps.database;
    const row = await db
      .selectFrom("nvlink_logical_partitions")
      .select(["id", "deleted_at", "tenant_org"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row || !visibleToTenant(scope, row.tenant_org)) throw new LogicalPartitionNotFoundError(id);
    if (!row.deleted_at) {
      const users = await instancesUsing(this.deps.database, id);
      if (users.length > 0) throw new LogicalPartitionInUseError(id, users);
      const now = this.clock();
      await db
        .updateTable("nvlink_logical_partitions")
        .set({ deleted_at: now, updated_at: now })
        .where("id", "=", id)
        .where("deleted_at", "is", null)
        .execute();
      this.deps.wake?.();
    }
    return this.get(id);
  }

  /** GPU ids per NMX-M partition id of this logical partition, from the stored observations. */
  private async observedMembers(id: string): Promise<Map<string, string[]>> {
    const rows = await this.deps.database.db.selectFrom("nvlink_gpu_observations").select("gpus").execute();
    const members = new Map<string, string[]>();
    for (const row of rows) {
      for (const gpu of row.gpus as NvLinkGpuObservation[]) {
        if (gpu.logicalPartitionId !== id || !gpu.partitionId) continue;
        members.set(gpu.partitionId, [...(members.get(gpu.partitionId) ?? []), gpu.gpuId]);
      }
    }
    return members;
  }
}

/** Ids of the instances not yet terminated whose nvlink config names the logical partition. */
export async function instancesUsing(database: Database, logicalPartitionId: string): Promise<string[]> {
  const rows = await database.db
    .selectFrom("instances")
    .select(["id", "config"])
    .where("terminated_at", "is", null)
    .execute();
  return rows
    .filter((row) => row.config.nvlink?.gpus.some((gpu) => gpu.logicalPartitionId === logicalPartitionId))
    .map((row) => row.id);
}
