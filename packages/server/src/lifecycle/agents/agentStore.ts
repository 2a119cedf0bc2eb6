import type { MachineInventory, ValidationResult } from "@racksmith/core";
import type { HealthReport } from "@racksmith/core/health";
import { type Selectable, sql, type Updateable } from "kysely";
import { type Database, isForeignKeyViolation } from "../../db/index.js";
import { MachineNotFoundError } from "../../explorer/errors.js";
import { MANAGED_HOST_OBJECT_TYPE } from "../../explorer/machineStore.js";
import { type ManagedHostState, settledOnDpuReports } from "../states.js";
import type { CleanupResult, DpuNetworkObservation, MachineReportsTable } from "../tables.js";
import { DpuNotFoundError } from "./errors.js";

export type MachineReportsRow = Selectable<MachineReportsTable>;

/** What the DPU agent sends with RecordDpuNetworkStatus; the store stamps the times. */
export type DpuNetworkStatusReport = Omit<DpuNetworkObservation, "observedAt">;

/** The source every DPU agent health report is stored under, whatever the agent claims. */
export const DPU_AGENT_HEALTH_SOURCE = "forge-dpu-agent";

/** Who ran the validation the host agent reports. */
export const HOST_AGENT_RUNNER = "host-agent";

type ReportUpdate = Omit<Updateable<MachineReportsTable>, "machine_id" | "updated_at">;

/**
 * A poll that reports nothing (AgentControl) moves the stored contact time at most this often, and a repeated DPU
 * status wakes its host at most this often: one write or host run per machine per interval instead of one per
 * poll (every write queues behind the lifecycle's on PGlite).
 */
export const CONTACT_WRITE_INTERVAL_MS = 5_000;

/** Whether `at` (ms) is recent enough that nothing new need be written or woken for an unchanged report. */
function writtenLately(now: Date, at: number): boolean {
  const since = now.getTime() - at;
  return since >= 0 && since < CONTACT_WRITE_INTERVAL_MS;
}

/** What a DPU status says, without when the agent observed its health (that changes on every report). */
function statusContent(status: DpuNetworkStatusReport): string {
  const { observedAt: _observedAt, ...health } = status.health;
  return JSON.stringify({ ...status, health });
}

/**
 * What each host's and DPU's agent last reported (machine_reports, one row per machine). Every time is this
 * service's clock at receipt, so the lifecycle compares them with its own state-entry times, never with an
 * agent's clock.
 */
export class AgentStore {
  private readonly clock: () => Date;
  /** When this process last wrote each machine's contact time. */
  private readonly contactWritten = new Map<string, number>();
  /** Each DPU's status as this process last woke its host for it, and when. */
  private readonly statusWoke = new Map<string, { content: string; at: number }>();

  constructor(
    private readonly database: Database,
    clock?: () => Date,
  ) {
    this.clock = clock ?? (() => new Date());
  }

  /** DiscoverMachine: the inventory, and when the machine was (re)discovered. */
  recordDiscovery(machineId: string, inventory: MachineInventory): Promise<RecordedReport> {
    return this.record(machineId, (now) => ({ inventory: JSON.stringify(inventory), discovered_at: now }));
  }

  recordDiscoveryCompleted(machineId: string): Promise<RecordedReport> {
    return this.record(machineId, (now) => ({ discovery_completed_at: now }));
  }

  recordRebootCompleted(machineId: string): Promise<RecordedReport> {
    return this.record(machineId, (now) => ({ reboot_completed_at: now }));
  }

  recordCleanupCompleted(machineId: string, result: CleanupResult): Promise<RecordedReport> {
    return this.record(machineId, (now) => ({
      cleanup_completed_at: now,
      cleanup_result: JSON.stringify(result),
    }));
  }

  /** The host agent's validation result (its own tests, or a run of host tests the service judged). */
  recordValidationCompleted(
    machineId: string,
    result: Omit<ValidationResult, "runBy"> & { runBy?: string },
  ): Promise<RecordedReport> {
    const stored: ValidationResult = { ...result, runBy: result.runBy ?? HOST_AGENT_RUNNER };
    return this.record(machineId, (now) => ({
      validation_completed_at: now,
      validation_result: JSON.stringify(stored),
    }));
  }

  /**
   * A DPU agent's status report, with the DPU looked up in the same statement: the applied versions,
   * interfaces and health, the health stored as the DPU agent's, observed now (every report: heartbeats count
   * from it). `wake` says whether the host should look: the report differs from the last one this process
   * stored for the DPU, or the host was last woken for it `CONTACT_WRITE_INTERVAL_MS` ago or more (a DPU agent
   * repeating itself every poll would otherwise run its host every poll) and the host, read in the same
   * statement, is not settled (`settledOnDpuReports`: a Ready host waits for no report, and every DPU's poll
   * running its host is work in proportion to the site). Unknown ids and hosts are a `DpuNotFoundError`.
   */
  async recordDpuNetworkStatus(
    dpuId: string,
    status: DpuNetworkStatusReport,
  ): Promise<{ hostId: string; wake: boolean }> {
    const now = this.clock();
    const content = statusContent(status);
    const observedAt = now.toISOString();
    const health: HealthReport = { ...status.health, source: DPU_AGENT_HEALTH_SOURCE, observedAt };
    const observation: DpuNetworkObservation = { ...status, health, observedAt };
    const { rows } = await sql<{ kind: string; host_id: string | null; host_state: ManagedHostState | null }>`
      WITH dpu AS (SELECT kind, host_id FROM machines WHERE id = ${dpuId}),
      written AS (
        INSERT INTO machine_reports (machine_id, network_status, network_status_at, last_contact_at, updated_at)
        SELECT ${dpuId}, ${JSON.stringify(observation)}::jsonb, ${now}::timestamptz, ${now}::timestamptz,
          ${now}::timestamptz
        FROM dpu WHERE kind = 'dpu' AND host_id IS NOT NULL
        ON CONFLICT (machine_id) DO UPDATE SET network_status = excluded.network_status,
          network_status_at = excluded.network_status_at, last_contact_at = excluded.last_contact_at,
          updated_at = excluded.updated_at
        RETURNING 1)
      SELECT kind, host_id, (SELECT state FROM state_objects WHERE object_type = ${MANAGED_HOST_OBJECT_TYPE}
        AND object_id = dpu.host_id) AS host_state
      FROM dpu`.execute(this.database.db);
    const dpu = rows[0];
    if (!dpu) throw new DpuNotFoundError(dpuId);
    if (dpu.kind !== "dpu" || !dpu.host_id) throw new DpuNotFoundError(dpuId, "it is a host, not a DPU");
    this.contactWritten.set(dpuId, now.getTime());
    const last = this.statusWoke.get(dpuId);
    const settled = dpu.host_state !== null && settledOnDpuReports(dpu.host_state);
    const wake = !last || last.content !== content || (!settled && !writtenLately(now, last.at));
    if (wake) this.statusWoke.set(dpuId, { content, at: now.getTime() });
    return { hostId: dpu.host_id, wake };
  }

  /** An agent call that reports nothing (AgentControl): only the last contact moves, at most every 5 s. */
  async recordContact(machineId: string): Promise<Date> {
    const now = this.clock();
    const written = this.contactWritten.get(machineId);
    if (written !== undefined && writtenLately(now, written)) return now;
    return (await this.record(machineId, () => ({}))).recordedAt;
  }

  /**
   * Upserts the machine's row with these columns plus the contact time, and reads in the same statement the
   * machine's host and that host's lifecycle state (for whether the report should run it). An unknown
   * machine is a `MachineNotFoundError`, and nothing is written.
   */
  private async record(machineId: string, columns: (now: Date) => ReportUpdate): Promise<RecordedReport> {
    const now = this.clock();
    const values = { ...columns(now), last_contact_at: now, updated_at: now };
    let row: { host_id: string; host_state: ManagedHostState | null } | undefined;
    try {
      row = await this.database.db
        .insertInto("machine_reports")
        .values({ machine_id: machineId, ...values })
        .onConflict((conflict) => conflict.column("machine_id").doUpdateSet(values))
        .returning([
          sql<string>`(SELECT coalesce(m.host_id, m.id) FROM machines m WHERE m.id = machine_reports.machine_id)`.as(
            "host_id",
          ),
          sql<ManagedHostState | null>`(SELECT s.state FROM machines m JOIN state_objects s
            ON s.object_type = ${MANAGED_HOST_OBJECT_TYPE} AND s.object_id = coalesce(m.host_id, m.id)
            WHERE m.id = machine_reports.machine_id)`.as("host_state"),
        ])
        .executeTakeFirst();
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new MachineNotFoundError(machineId);
      throw error;
    }
    if (!row) throw new MachineNotFoundError(machineId);
    this.contactWritten.set(machineId, now.getTime());
    return { recordedAt: now, hostId: row.host_id, hostState: row.host_state };
  }
}

/** A stored report: when, the machine's host, and the host's lifecycle state (null without one). */
export interface RecordedReport {
  recordedAt: Date;
  hostId: string;
  hostState: ManagedHostState | null;
}
