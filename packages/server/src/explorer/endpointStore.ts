import type { ExplorationReport } from "@racksmith/core";
import { type Kysely, type Selectable, sql } from "kysely";
import type { RacksmithDatabase } from "../db/index.js";
import type { BmcEndpoint } from "../inventory/contracts.js";
import type { EndpointExploration } from "./endpointExplorer.js";
import type { EndpointFinding } from "./findings.js";
import type { AuthFailures } from "./lockout.js";
import type { EndpointPriorityFacts } from "./priority.js";
import type { ExploredEndpointsTable, ExploredManagedHostsTable } from "./tables.js";
import type { EndpointDetail, EndpointSummary, ManagedHostView } from "./views.js";

type Db = Kysely<RacksmithDatabase>;
type EndpointRow = Selectable<ExploredEndpointsTable>;

/** What a run needs to pick and explore endpoints. */
export interface EndpointSchedulingFacts extends EndpointPriorityFacts {
  bmcMac: string | null;
  authFailures: AuthFailures;
}

/** A stored report, for pairing and ingestion. */
export interface StoredReport {
  address: string;
  bmcMac: string | null;
  report: ExplorationReport;
  lastPowerOnAt: Date | undefined;
}

/** A host's verdict of this run, written with the endpoint's findings. */
export type ManagedHostVerdict = Omit<ManagedHostView, "updatedAt" | "primaryDpu">;

const CHUNK = 500;

/** The explorer's endpoint tables: which BMCs exist, their last report, error, counters and verdicts. */
export class EndpointStore {
  constructor(
    private readonly db: Db,
    private readonly clock: () => Date,
  ) {}

  /** Makes the table match the inventory's endpoints: new ones added, gone ones (and their verdicts) removed. */
  async syncEndpoints(endpoints: readonly BmcEndpoint[]): Promise<void> {
    const now = this.clock();
    const wanted = new Map(endpoints.map((e) => [e.address, e]));
    const stored = await this.db.selectFrom("explored_endpoints").select(["address", "bmc_mac"]).execute();
    const storedMac = new Map(stored.map((row) => [row.address, row.bmc_mac]));
    const gone = stored.map((row) => row.address).filter((address) => !wanted.has(address));
    const changed = [...wanted.values()].filter((e) => storedMac.get(e.address) !== e.mac);
    await this.db.transaction().execute(async (trx) => {
      for (const part of chunks(gone)) {
        await trx.deleteFrom("explored_endpoints").where("address", "in", part).execute();
      }
      for (const part of chunks(changed)) {
        await trx
          .insertInto("explored_endpoints")
          .values(
            part.map((e) => ({
              address: e.address,
              bmc_mac: e.mac,
              findings: "[]",
              // First seen (not first synced), so BMCs that booted together are explored together.
              created_at: e.firstSeenAt ?? now,
              updated_at: now,
            })),
          )
          .onConflict((oc) =>
            oc
              .column("address")
              .doUpdateSet((eb) => ({ bmc_mac: eb.ref("excluded.bmc_mac"), updated_at: now })),
          )
          .execute();
      }
    });
  }

  async schedulingFacts(): Promise<EndpointSchedulingFacts[]> {
    const rows = await this.db
      .selectFrom("explored_endpoints")
      .select([
        "address",
        "bmc_mac",
        "exploration_requested",
        "last_explored_at",
        "auth_failures",
        "last_auth_failure_at",
        "created_at",
        sql<boolean>`last_error IS NOT NULL`.as("failed"),
      ])
      .execute();
    return rows.map((row) => ({
      address: row.address,
      bmcMac: row.bmc_mac,
      explorationRequested: row.exploration_requested,
      lastExploredAt: row.last_explored_at,
      lastExplorationFailed: row.failed,
      firstSeenAt: row.created_at,
      authFailures: { count: row.auth_failures, lastAt: row.last_auth_failure_at ?? undefined },
    }));
  }

  async authFailures(address: string): Promise<AuthFailures | undefined> {
    const row = await this.db
      .selectFrom("explored_endpoints")
      .select(["auth_failures", "last_auth_failure_at"])
      .where("address", "=", address)
      .executeTakeFirst();
    return row && { count: row.auth_failures, lastAt: row.last_auth_failure_at ?? undefined };
  }

  /** Stores an exploration: a new report bumps the report version; a failure keeps the previous report. */
  async saveExploration(address: string, exploration: EndpointExploration): Promise<void> {
    const now = this.clock();
    const { report, error } = exploration;
    await this.db
      .updateTable("explored_endpoints")
      .set((eb) => ({
        ...(report ? { report: JSON.stringify(report), report_version: eb("report_version", "+", 1) } : {}),
        ...(exploration.vendor ? { vendor: exploration.vendor } : {}),
        ...(exploration.driver ? { driver: exploration.driver } : {}),
        last_error: error ? JSON.stringify(error) : null,
        last_explored_at: exploration.exploredAt,
        latency_ms: exploration.latencyMs,
        exploration_requested: false,
        ...authFailureColumns(exploration.authFailures),
        updated_at: now,
      }))
      .where("address", "=", address)
      .execute();
  }

  async saveAuthFailures(address: string, failures: AuthFailures): Promise<void> {
    await this.db
      .updateTable("explored_endpoints")
      .set({ ...authFailureColumns(failures), updated_at: this.clock() })
      .where("address", "=", address)
      .execute();
  }

  /** Marks the endpoint to go first in the next run; adds it first when the inventory knows it but no run has yet. */
  async requestExploration(endpoint: BmcEndpoint): Promise<void> {
    const now = this.clock();
    await this.db
      .insertInto("explored_endpoints")
      .values({
        address: endpoint.address,
        bmc_mac: endpoint.mac,
        exploration_requested: true,
        findings: "[]",
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column("address").doUpdateSet({ exploration_requested: true, updated_at: now }))
      .execute();
  }

  async markPoweredOn(address: string, at: Date): Promise<void> {
    await this.db
      .updateTable("explored_endpoints")
      .set({ last_power_on_at: at, exploration_requested: true, updated_at: at })
      .where("address", "=", address)
      .execute();
  }

  /**
   * The reports of endpoints no managed machine holds (by BMC MAC), in address order: a managed host's verdict
   * stands, so a run reads only what may still pair or ingest, however large the site already managed is.
   */
  async unmanagedReports(): Promise<StoredReport[]> {
    const rows = await this.db
      .selectFrom("explored_endpoints as e")
      .select(["e.address", "e.bmc_mac", "e.report", "e.last_power_on_at"])
      .where("e.report", "is not", null)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom("machines as m").select("m.id").whereRef("m.bmc_mac", "=", "e.bmc_mac"))),
      )
      .orderBy("e.address")
      .execute();
    return rows.flatMap(toStoredReport);
  }

  /** The reports of managed DPUs with these serials (a host that shows one is rejected, not kept waiting). */
  async managedDpuReports(serials: readonly string[]): Promise<StoredReport[]> {
    if (serials.length === 0) return [];
    const rows = await this.db
      .selectFrom("explored_endpoints as e")
      .innerJoin("machines as m", "m.bmc_mac", "e.bmc_mac")
      .select(["e.address", "e.bmc_mac", "e.report", "e.last_power_on_at"])
      .where("e.report", "is not", null)
      .where("m.kind", "=", "dpu")
      .where("m.serial", "in", [...serials])
      .orderBy("e.address")
      .execute();
    return rows.flatMap(toStoredReport);
  }

  /**
   * Stores this run's host verdicts and every endpoint's findings, in one transaction. A host a managed
   * machine holds keeps its verdict (runs no longer evaluate it); every other verdict is this run's.
   */
  async saveVerdicts(
    verdicts: readonly ManagedHostVerdict[],
    findings: ReadonlyMap<string, EndpointFinding[]>,
  ): Promise<void> {
    const now = this.clock();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom("explored_managed_hosts as h")
        .where(({ eb, and, not, exists, selectFrom }) =>
          not(
            and([
              eb("h.status", "=", "ingested"),
              exists(selectFrom("machines as m").select("m.id").whereRef("m.id", "=", "h.machine_id")),
            ]),
          ),
        )
        .execute();
      for (const part of chunks(verdicts)) {
        await trx
          .insertInto("explored_managed_hosts")
          .values(
            part.map((v) => ({
              host_address: v.hostAddress,
              status: v.status,
              code: v.code,
              reason: v.reason,
              machine_id: v.machineId,
              serial: v.serial,
              dpus: JSON.stringify(v.dpus),
              updated_at: now,
            })),
          )
          .onConflict((oc) =>
            oc.column("host_address").doUpdateSet((eb) => ({
              status: eb.ref("excluded.status"),
              code: eb.ref("excluded.code"),
              reason: eb.ref("excluded.reason"),
              machine_id: eb.ref("excluded.machine_id"),
              serial: eb.ref("excluded.serial"),
              dpus: eb.ref("excluded.dpus"),
              updated_at: eb.ref("excluded.updated_at"),
            })),
          )
          .execute();
      }
      await trx
        .updateTable("explored_endpoints")
        .set({ findings: "[]" })
        .where(sql<boolean>`findings <> '[]'::jsonb`)
        .execute();
      for (const [address, list] of findings) {
        await trx
          .updateTable("explored_endpoints")
          .set({ findings: JSON.stringify(list) })
          .where("address", "=", address)
          .execute();
      }
    });
  }

  async listEndpoints(): Promise<EndpointSummary[]> {
    const rows = await this.db
      .selectFrom("explored_endpoints")
      .select(SUMMARY_COLUMNS)
      .orderBy("address")
      .execute();
    return rows.map(toSummary);
  }

  async getEndpoint(address: string): Promise<EndpointDetail | undefined> {
    const row = await this.db
      .selectFrom("explored_endpoints")
      .select([...SUMMARY_COLUMNS, "report"])
      .where("address", "=", address)
      .executeTakeFirst();
    return row && { ...toSummary(row), report: row.report };
  }

  async listManagedHosts(): Promise<ManagedHostView[]> {
    const rows = await this.db
      .selectFrom("explored_managed_hosts")
      .selectAll()
      .orderBy("host_address")
      .execute();
    return rows.map(toManagedHostView);
  }
}

const SUMMARY_COLUMNS = [
  "address",
  "bmc_mac",
  "vendor",
  "driver",
  "last_error",
  "report_version",
  "last_explored_at",
  "latency_ms",
  "exploration_requested",
  "findings",
] as const;

function toSummary(row: Pick<EndpointRow, (typeof SUMMARY_COLUMNS)[number]>): EndpointSummary {
  return {
    address: row.address,
    bmcMac: row.bmc_mac,
    vendor: row.vendor,
    driver: row.driver,
    lastError: row.last_error,
    reportVersion: row.report_version,
    lastExploredAt: row.last_explored_at?.toISOString() ?? null,
    latencyMs: row.latency_ms,
    explorationRequested: row.exploration_requested,
    findings: row.findings,
  };
}

function toManagedHostView(row: Selectable<ExploredManagedHostsTable>): ManagedHostView {
  return {
    hostAddress: row.host_address,
    status: row.status,
    code: row.code,
    reason: row.reason,
    machineId: row.machine_id,
    serial: row.serial,
    dpus: row.dpus,
    primaryDpu: row.dpus.find((dpu) => dpu.primary)?.machineId ?? null,
    updatedAt: row.updated_at.toISOString(),
  };
}

function toStoredReport(
  row: Pick<EndpointRow, "address" | "bmc_mac" | "report" | "last_power_on_at">,
): StoredReport[] {
  return row.report
    ? [
        {
          address: row.address,
          bmcMac: row.bmc_mac,
          report: row.report,
          lastPowerOnAt: row.last_power_on_at ?? undefined,
        },
      ]
    : [];
}

function authFailureColumns(failures: AuthFailures) {
  return { auth_failures: failures.count, last_auth_failure_at: failures.lastAt ?? null };
}

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}
