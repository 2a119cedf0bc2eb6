import { randomBytes } from "node:crypto";
import type { Logger } from "@racksmith/core";
import { InvalidArgumentError } from "@racksmith/core";
import type { StateEngine } from "@racksmith/core/engine";
import type { HealthProbeAlert } from "@racksmith/core/health";
import { sql } from "kysely";
import { listedTenantOrg, tenantOrgFor, visibleToTenant } from "../../api/index.js";
import type { Database } from "../../db/index.js";
import { stateLabelOf } from "../../explorer/machineLifecycle.js";
import { MANAGED_HOST_OBJECT_TYPE } from "../../explorer/machineStore.js";
import { tenantVisibleAlerts } from "../../health/effects.js";
import { enqueueHost } from "../agents/enqueueHost.js";
import { requireMachine } from "../agents/machineLookup.js";
import type { InstanceFabric } from "../fabrics/index.js";
import type { InstanceConfig } from "../tables.js";
import { allocationCandidates } from "./allocationCandidates.js";
import {
  AllocationBlockedError,
  ConfigVersionMismatchError,
  HostAlreadyAllocatedError,
  HostNotReadyError,
  InstanceNotFoundError,
  InstanceReleasedError,
  NoHostAvailableError,
} from "./errors.js";
import { parseInstanceConfig } from "./instanceConfig.js";
import { instanceStatuses } from "./instanceStatus.js";
import {
  type InstanceRow,
  type InstanceView,
  type TenantHealthAlert,
  toFabricTarget,
  toInstanceView,
} from "./instanceView.js";
import { parseReleaseIssue } from "./releaseIssue.js";

export interface InstanceServiceDeps {
  database: Database;
  engine: Pick<StateEngine, "enqueue" | "getObjectState">;
  logger: Logger;
  clock?: () => Date;
  /** The host's alerts that forbid allocating it (PreventAllocations); empty when it may be allocated. */
  allocationBlockers: (hostId: string) => Promise<HealthProbeAlert[]>;
  /** The host's aggregate health alerts, of which tenants see those with a tenant message (default none). */
  hostAlerts?: (hostId: string) => Promise<HealthProbeAlert[]>;
  /** The configured tenant fabrics: their config sections are accepted and checked (default none). */
  fabrics?: () => readonly InstanceFabric[];
}

export interface AllocateInstanceInput {
  /** Required, but for a tenant caller, for whom it is its own org. */
  tenantOrg?: string | undefined;
  /** Exactly one of machineId (that host) and instanceType (any free host of that SKU). */
  machineId?: string | undefined;
  instanceType?: string | undefined;
  /** Checked here: the transports pass what the client sent. */
  config?: unknown;
  /** Default: the instance id. */
  name?: string | undefined;
}

export interface FindInstancesQuery {
  tenantOrg?: string | undefined;
  machineId?: string | undefined;
  includeTerminated?: boolean | undefined;
}

interface InstanceDraft {
  tenantOrg: string;
  instanceType: string | null;
  config: InstanceConfig;
  name: string | undefined;
}

const present = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === "" ? undefined : value;

/**
 * Tenant instances: the API side only records intents (a new instance, a release, a new config) and wakes
 * the host's lifecycle, which carries them out; the status is derived on every read.
 */
export class InstanceService {
  private readonly clock: () => Date;

  constructor(private readonly deps: InstanceServiceDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  /** `scope`: the tenant org a tenant caller is limited to (`tenantScopeOf`); it may allocate for it only. */
  async allocate(input: AllocateInstanceInput, scope?: string): Promise<InstanceView> {
    const tenantOrg = tenantOrgFor(scope, present(input.tenantOrg));
    if (!tenantOrg) throw new InvalidArgumentError("tenantOrg is required");
    const machineId = present(input.machineId);
    const instanceType = present(input.instanceType);
    if (machineId && instanceType) {
      throw new InvalidArgumentError("give one of machineId and instanceType, not both");
    }
    if (!machineId && !instanceType) throw new InvalidArgumentError("machineId or instanceType is required");
    const draft: InstanceDraft = {
      tenantOrg,
      instanceType: instanceType ?? null,
      config: parseInstanceConfig(input.config, "config", this.fabricNames()),
      name: present(input.name),
    };
    const row = machineId
      ? await this.allocateHost(machineId, draft)
      : await this.allocateOfType(instanceType ?? "", draft);
    await enqueueHost(this.deps.engine, row.machine_id, this.deps.logger);
    this.deps.logger.info({ instanceId: row.id, hostId: row.machine_id, tenantOrg }, "instance allocated");
    return this.view(row);
  }

  /** Asks for the instance's termination (idempotent: the first request's time and issue are kept). */
  async release(id: string, issue?: unknown, scope?: string): Promise<InstanceView> {
    const parsedIssue = issue === undefined || issue === null ? undefined : parseReleaseIssue(issue);
    const now = this.clock();
    let release = this.deps.database.db
      .updateTable("instances")
      .set({
        release_requested_at: sql<Date>`coalesce(release_requested_at, ${now}::timestamptz)`,
        ...(parsedIssue
          ? { release_issue: sql<string>`coalesce(release_issue, ${JSON.stringify(parsedIssue)}::jsonb)` }
          : {}),
        updated_at: now,
      })
      .where("id", "=", id)
      .where("terminated_at", "is", null);
    if (scope !== undefined) release = release.where("tenant_org", "=", scope);
    const row = await release.returningAll().executeTakeFirst();
    if (!row) {
      await this.requireRow(id, scope);
      throw new InstanceReleasedError(id, "terminated", "release");
    }
    await enqueueHost(this.deps.engine, row.machine_id, this.deps.logger);
    return this.view(row);
  }

  /** Replaces the config and bumps its version in one statement, so concurrent updates never lose one. */
  async updateConfig(
    id: string,
    config: unknown,
    ifVersionMatch?: number,
    scope?: string,
  ): Promise<InstanceView> {
    const parsed = parseInstanceConfig(config, "config", this.fabricNames());
    if (ifVersionMatch !== undefined && (!Number.isSafeInteger(ifVersionMatch) || ifVersionMatch < 0)) {
      throw new InvalidArgumentError(`ifVersionMatch: ${ifVersionMatch} is not a non-negative integer`);
    }
    const current = await this.requireRow(id, scope);
    await this.checkFabrics({ ...current, config: parsed, config_version: current.config_version + 1 });
    const now = this.clock();
    let update = this.deps.database.db
      .updateTable("instances")
      .set((eb) => ({
        config: JSON.stringify(parsed),
        config_version: eb("config_version", "+", 1),
        updated_at: now,
      }))
      .where("id", "=", id)
      .where("release_requested_at", "is", null)
      .where("terminated_at", "is", null);
    if (ifVersionMatch !== undefined) update = update.where("config_version", "=", ifVersionMatch);
    const row = await update.returningAll().executeTakeFirst();
    if (!row) {
      const current = await this.requireRow(id);
      if (current.terminated_at) throw new InstanceReleasedError(id, "terminated", "update the config of");
      if (current.release_requested_at) {
        throw new InstanceReleasedError(id, "release requested", "update the config of");
      }
      throw new ConfigVersionMismatchError(
        id,
        ifVersionMatch ?? current.config_version,
        current.config_version,
      );
    }
    await enqueueHost(this.deps.engine, row.machine_id, this.deps.logger);
    return this.view(row);
  }

  async get(id: string, scope?: string): Promise<InstanceView> {
    return this.view(await this.requireRow(id, scope));
  }

  /** Newest first; terminated instances only with `includeTerminated`; a tenant caller's own org's only. */
  async find(query: FindInstancesQuery = {}, scope?: string): Promise<InstanceView[]> {
    let select = this.deps.database.db.selectFrom("instances").selectAll();
    const tenantOrg = listedTenantOrg(scope, present(query.tenantOrg));
    if (tenantOrg === null) return [];
    const machineId = present(query.machineId);
    if (tenantOrg) select = select.where("tenant_org", "=", tenantOrg);
    if (machineId) select = select.where("machine_id", "=", machineId);
    if (!query.includeTerminated) select = select.where("terminated_at", "is", null);
    const rows = await select.orderBy("created_at", "desc").orderBy("id", "desc").execute();
    return this.views(rows);
  }

  private async allocateHost(machineId: string, draft: InstanceDraft): Promise<InstanceRow> {
    const { machine, hostId } = await requireMachine(this.deps.database.db, machineId);
    if (machine.kind !== "host") {
      throw new InvalidArgumentError(
        `machineId: ${machineId} is a DPU (of host ${hostId}); allocate its host instead`,
        { details: { field: "machineId", hostId } },
      );
    }
    const object = await this.deps.engine.getObjectState(MANAGED_HOST_OBJECT_TYPE, hostId, {
      historyLimit: 0,
    });
    if (object?.state.state !== "ready") {
      throw new HostNotReadyError(hostId, object ? stateLabelOf(object.state) : null);
    }
    const blockers = await this.deps.allocationBlockers(hostId);
    if (blockers.length > 0) throw new AllocationBlockedError(hostId, blockers);
    await this.checkFabrics(draftRow(hostId, draft));
    const row = await this.insert(hostId, draft);
    if (!row) throw new HostAlreadyAllocatedError(hostId);
    return row;
  }

  /** The first free candidate that is not blocked; one taken meanwhile by another allocation is skipped. */
  private async allocateOfType(instanceType: string, draft: InstanceDraft): Promise<InstanceRow> {
    for (const hostId of await allocationCandidates(this.deps.database, instanceType)) {
      if ((await this.deps.allocationBlockers(hostId)).length > 0) continue;
      await this.checkFabrics(draftRow(hostId, draft));
      const row = await this.insert(hostId, draft);
      if (row) return row;
    }
    throw new NoHostAvailableError(instanceType);
  }

  /**
   * The insert settles concurrent allocations of one host: the partial unique index
   * instances_one_live_per_machine lets exactly one live instance in; the others get no row back.
   */
  private async insert(hostId: string, draft: InstanceDraft): Promise<InstanceRow | undefined> {
    const id = `i-${randomBytes(10).toString("hex")}`;
    const now = this.clock();
    return this.deps.database.db
      .insertInto("instances")
      .values({
        id,
        name: draft.name ?? id,
        machine_id: hostId,
        tenant_org: draft.tenantOrg,
        instance_type: draft.instanceType,
        config: JSON.stringify(draft.config),
        config_version: 1,
        created_at: now,
        updated_at: now,
      })
      .onConflict((conflict) => conflict.column("machine_id").where("terminated_at", "is", null).doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  private fabricNames(): ReadonlySet<string> {
    return new Set((this.deps.fabrics?.() ?? []).map((fabric) => fabric.name));
  }

  /** Each configured fabric checks its section against the host (its ports, GPUs, partitions). */
  private async checkFabrics(
    row: Pick<InstanceRow, "id" | "machine_id" | "tenant_org" | "config" | "config_version">,
  ): Promise<void> {
    const target = toFabricTarget(row);
    for (const fabric of this.deps.fabrics?.() ?? [])
      await fabric.checkConfig(target, `config.${fabric.name}`);
  }

  /** The instance; another org's is not found for a tenant caller (`scope`), as if it did not exist. */
  private async requireRow(id: string, scope?: string): Promise<InstanceRow> {
    const row = await this.deps.database.db
      .selectFrom("instances")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row || !visibleToTenant(scope, row.tenant_org)) throw new InstanceNotFoundError(id);
    return row;
  }

  private async view(row: InstanceRow): Promise<InstanceView> {
    const [view] = await this.views([row]);
    if (!view) throw new InstanceNotFoundError(row.id);
    return view;
  }

  private async views(rows: readonly InstanceRow[]): Promise<InstanceView[]> {
    const statuses = await instanceStatuses(
      this.deps.database,
      this.deps.engine,
      rows,
      this.deps.fabrics?.() ?? [],
    );
    return Promise.all(
      rows.map(async (row, i) => {
        const status = statuses[i] as (typeof statuses)[number];
        // Terminated instances no longer have a host of their own.
        const alerts = row.terminated_at ? [] : ((await this.deps.hostAlerts?.(row.machine_id)) ?? []);
        return toInstanceView(row, { ...status, healthAlerts: tenantAlerts(alerts) });
      }),
    );
  }
}

/** The instance a draft would become on the host, as fabrics check it (its id is not known yet). */
function draftRow(hostId: string, draft: InstanceDraft) {
  return { id: "", machine_id: hostId, tenant_org: draft.tenantOrg, config: draft.config, config_version: 1 };
}

/** What a tenant sees of the host's health: alerts with a tenant message, as that message. */
function tenantAlerts(alerts: readonly HealthProbeAlert[]): TenantHealthAlert[] {
  return tenantVisibleAlerts({ source: "aggregate-host-health", successes: [], alerts: [...alerts] }).map(
    (alert) => ({ id: alert.id, ...(alert.target ? { target: alert.target } : {}), message: alert.message }),
  );
}
