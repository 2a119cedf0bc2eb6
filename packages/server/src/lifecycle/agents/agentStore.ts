import type { MachineInventory, ValidationResult } from "@racksmith/core";
import type { HealthReport } from "@racksmith/core/health";
import type { Selectable, Updateable } from "kysely";
import type { Database } from "../../db/index.js";
import type { CleanupResult, DpuNetworkObservation, MachineReportsTable } from "../tables.js";

export type MachineReportsRow = Selectable<MachineReportsTable>;

/** What the DPU agent sends with RecordDpuNetworkStatus; the store stamps the times. */
export type DpuNetworkStatusReport = Omit<DpuNetworkObservation, "observedAt">;

/** The source every DPU agent health report is stored under, whatever the agent claims. */
export const DPU_AGENT_HEALTH_SOURCE = "forge-dpu-agent";

/** Who ran the validation the host agent reports. */
export const HOST_AGENT_RUNNER = "host-agent";

type ReportUpdate = Omit<Updateable<MachineReportsTable>, "machine_id" | "updated_at">;

/**
 * A poll that reports nothing (AgentControl) moves the stored contact time at most this often: one write per
 * machine per interval instead of one per poll (every write queues behind the lifecycle's on PGlite).
 */
export const CONTACT_WRITE_INTERVAL_MS = 5_000;

/**
 * What each host's and DPU's agent last reported (machine_reports, one row per machine). Every time is this
 * service's clock at receipt, so the lifecycle compares them with its own state-entry times, never with an
 * agent's clock.
 */
export class AgentStore {
  private readonly clock: () => Date;
  /** When this process last wrote each machine's contact time. */
  private readonly contactWritten = new Map<string, number>();

  constructor(
    private readonly database: Database,
    clock?: () => Date,
  ) {
    this.clock = clock ?? (() => new Date());
  }

  /** DiscoverMachine: the inventory, and when the machine was (re)discovered. */
  recordDiscovery(machineId: string, inventory: MachineInventory): Promise<Date> {
    return this.record(machineId, (now) => ({ inventory: JSON.stringify(inventory), discovered_at: now }));
  }

  recordDiscoveryCompleted(machineId: string): Promise<Date> {
    return this.record(machineId, (now) => ({ discovery_completed_at: now }));
  }

  recordRebootCompleted(machineId: string): Promise<Date> {
    return this.record(machineId, (now) => ({ reboot_completed_at: now }));
  }

  recordCleanupCompleted(machineId: string, result: CleanupResult): Promise<Date> {
    return this.record(machineId, (now) => ({
      cleanup_completed_at: now,
      cleanup_result: JSON.stringify(result),
    }));
  }

  recordValidationCompleted(machineId: string, result: Omit<ValidationResult, "runBy">): Promise<Date> {
    const stored: ValidationResult = { ...result, runBy: HOST_AGENT_RUNNER };
    return this.record(machineId, (now) => ({
      validation_completed_at: now,
      validation_result: JSON.stringify(stored),
    }));
  }

  /** The DPU's applied versions, interfaces and health; the health is stored as the DPU agent's, observed now. */
  recordDpuNetworkStatus(dpuId: string, status: DpuNetworkStatusReport): Promise<Date> {
    return this.record(dpuId, (now) => {
      const observedAt = now.toISOString();
      const health: HealthReport = { ...status.health, source: DPU_AGENT_HEALTH_SOURCE, observedAt };
      const observation: DpuNetworkObservation = { ...status, health, observedAt };
      return { network_status: JSON.stringify(observation), network_status_at: now };
    });
  }

  /** An agent call that reports nothing (AgentControl): only the last contact moves, at most every 5 s. */
  async recordContact(machineId: string): Promise<Date> {
    const now = this.clock();
    const written = this.contactWritten.get(machineId);
    const sinceWritten = written === undefined ? Number.POSITIVE_INFINITY : now.getTime() - written;
    if (sinceWritten >= 0 && sinceWritten < CONTACT_WRITE_INTERVAL_MS) return now;
    return this.record(machineId, () => ({}));
  }

  /** The stored reports of these machines, by machine id (machines never heard from are absent). */
  async reportsFor(machineIds: readonly string[]): Promise<Map<string, MachineReportsRow>> {
    if (machineIds.length === 0) return new Map();
    const rows = await this.database.db
      .selectFrom("machine_reports")
      .selectAll()
      .where("machine_id", "in", [...machineIds])
      .execute();
    return new Map(rows.map((row) => [row.machine_id, row]));
  }

  /** Upserts the machine's row with these columns plus the contact time; resolves to the time recorded. */
  private async record(machineId: string, columns: (now: Date) => ReportUpdate): Promise<Date> {
    const now = this.clock();
    const values = { ...columns(now), last_contact_at: now, updated_at: now };
    await this.database.db
      .insertInto("machine_reports")
      .values({ machine_id: machineId, ...values })
      .onConflict((conflict) => conflict.column("machine_id").doUpdateSet(values))
      .execute();
    this.contactWritten.set(machineId, now.getTime());
    return now;
  }
}
