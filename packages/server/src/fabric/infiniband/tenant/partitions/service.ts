import { randomUUID } from "node:crypto";
import { InvalidArgumentError } from "@racksmith/core";
import type { StateEngine } from "@racksmith/core/engine";
import type { InfiniBandFabricSettings } from "@racksmith/core/infiniband";
import { formatPkey, parsePkey } from "@racksmith/core/infiniband";
import { listedTenantOrg, tenantOrgFor, visibleToTenant } from "../../../../api/index.js";
import { type Database, isUniqueViolation } from "../../../../db/index.js";
import {
  IbPartitionInUseError,
  IbPartitionNotFoundError,
  PkeyTakenError,
  TooManyIbPartitionsError,
} from "../errors.js";
import { allocatePkey } from "../pool/index.js";
import { IB_PARTITION_OBJECT_TYPE, type IbPartitionState, ibPartitionStateName } from "./states.js";
import {
  countForTenant,
  type IbPartitionRow,
  partitionUsers,
  readPartition,
  readPartitions,
  usedPkeys,
} from "./store.js";

export interface CreateIbPartitionInput {
  name: string;
  tenantOrg: string;
  /** `0x`-hex or decimal; must lie in the configured ranges. Default: the lowest free pkey. */
  pkey?: string | number;
}

/** A partition as the APIs show it. */
export interface IbPartitionView {
  id: string;
  name: string;
  tenantOrg: string;
  /** `0x…`. */
  pkey: string;
  requestedPkey: string | null;
  /** Provisioning, Ready, Deleting, Error. */
  state: string;
  /** Why it is in Error. */
  cause: string | null;
  createdAt: string;
  deletedAt: string | null;
}

export interface IbPartitionServiceDeps {
  database: Database;
  engine: Pick<StateEngine, "createObject" | "enqueue" | "getObjectState">;
  settings: InfiniBandFabricSettings;
  maxPartitionsPerTenant: number;
  clock?: () => Date;
}

/** Tenant IB partitions: the APIs record intents, the `ib-partition` state machine acts on them. */
export class IbPartitionService {
  private readonly clock: () => Date;
  constructor(private readonly deps: IbPartitionServiceDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  /** `scope`: the tenant org a tenant caller is limited to; it may create for it only. */
  async create(input: CreateIbPartitionInput, scope?: string): Promise<IbPartitionView> {
    const name = required(input.name, "name");
    const tenantOrg = required(tenantOrgFor(scope, input.tenantOrg || undefined), "tenantOrg");
    const requested = input.pkey === undefined || input.pkey === "" ? undefined : requestedPkey(input.pkey);
    const db = this.deps.database.db;
    if ((await countForTenant(db, tenantOrg)) >= this.deps.maxPartitionsPerTenant)
      throw new TooManyIbPartitionsError(tenantOrg, this.deps.maxPartitionsPerTenant);
    // Two creates may pick the same free pkey: the unique index refuses one, which then picks again.
    for (let attempt = 0; ; attempt++) {
      const pkey = allocatePkey(this.deps.settings.pkeyRanges, await usedPkeys(db), requested);
      const id = randomUUID();
      try {
        await db.transaction().execute(async (trx) => {
          await trx
            .insertInto("ib_partitions")
            .values({
              id,
              name,
              tenant_org: tenantOrg,
              pkey,
              requested_pkey: requested ?? null,
              created_at: this.clock(),
            })
            .execute();
          await this.deps.engine.createObject(
            IB_PARTITION_OBJECT_TYPE,
            id,
            { state: "provisioning" },
            { trx },
          );
        });
        return this.get(id);
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 5) throw error;
        if (requested !== undefined) throw new PkeyTakenError(requested);
      }
    }
  }

  /** A tenant caller's (`scope`) own org's only. */
  async list(filter: { tenantOrg?: string } = {}, scope?: string): Promise<IbPartitionView[]> {
    const tenantOrg = listedTenantOrg(scope, filter.tenantOrg || undefined);
    if (tenantOrg === null) return [];
    const rows = await readPartitions(this.deps.database.db, tenantOrg !== undefined ? { tenantOrg } : {});
    return Promise.all(rows.map((row) => this.view(row)));
  }

  async get(id: string, scope?: string): Promise<IbPartitionView> {
    return this.view(await this.requireRow(id, scope));
  }

  /** Marks it deleted (refused while a live instance uses it); the state machine unbinds and frees the pkey. */
  async delete(id: string, scope?: string): Promise<IbPartitionView> {
    const db = this.deps.database.db;
    const row = await this.requireRow(id, scope);
    const users = await partitionUsers(db, id);
    if (users.length > 0) throw new IbPartitionInUseError(id, users);
    if (!row.deleted_at)
      await db.updateTable("ib_partitions").set({ deleted_at: this.clock() }).where("id", "=", id).execute();
    await this.deps.engine.enqueue(IB_PARTITION_OBJECT_TYPE, id);
    return this.get(id).catch(() => this.view({ ...row, deleted_at: this.clock() }));
  }

  /** The partition; another org's is not found for a tenant caller (`scope`), as if it did not exist. */
  private async requireRow(id: string, scope: string | undefined): Promise<IbPartitionRow> {
    const row = await readPartition(this.deps.database.db, id);
    if (!row || !visibleToTenant(scope, row.tenant_org)) throw new IbPartitionNotFoundError(id);
    return row;
  }

  /** The partition's engine state (undefined once it is gone). */
  async state(id: string): Promise<IbPartitionState | undefined> {
    const view = await this.deps.engine.getObjectState(IB_PARTITION_OBJECT_TYPE, id, { historyLimit: 0 });
    return view?.state as IbPartitionState | undefined;
  }

  private async view(row: IbPartitionRow): Promise<IbPartitionView> {
    const state = (await this.state(row.id)) ?? { state: "deleting" };
    return {
      id: row.id,
      name: row.name,
      tenantOrg: row.tenant_org,
      pkey: formatPkey(row.pkey),
      requestedPkey: row.requested_pkey === null ? null : formatPkey(row.requested_pkey),
      state: ibPartitionStateName(state),
      cause: state.state === "error" ? state.cause : null,
      createdAt: new Date(row.created_at).toISOString(),
      deletedAt: row.deleted_at ? new Date(row.deleted_at).toISOString() : null,
    };
  }
}

function required(value: unknown, field: string): string {
  if (typeof value !== "string" || value.trim() === "")
    throw new InvalidArgumentError(`${field}: must be a non-empty string`, { details: { field } });
  return value.trim();
}

function requestedPkey(value: string | number) {
  try {
    return parsePkey(value);
  } catch (error) {
    throw new InvalidArgumentError(`pkey: ${(error as Error).message}`, { details: { field: "pkey" } });
  }
}
