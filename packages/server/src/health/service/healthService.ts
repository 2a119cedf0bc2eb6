import type { Logger } from "@racksmith/core";
import { InvalidArgumentError } from "@racksmith/core";
import type { StateEngine } from "@racksmith/core/engine";
import type { HealthProbeAlert, HealthReport } from "@racksmith/core/health";
import { Registry } from "prom-client";
import type { Database } from "../../db/index.js";
import { MachineNotFoundError } from "../../explorer/errors.js";
import { MANAGED_HOST_OBJECT_TYPE } from "../../explorer/machineStore.js";
import { findMachine } from "../../lifecycle/agents/machineLookup.js";
import { deriveAggregateHealth } from "../aggregate.js";
import { healthContentHash } from "../contentHash.js";
import { allocationBlockers } from "../effects.js";
import type { HealthHistoryEntry } from "../history.js";
import { addOverride, type HealthOverrideMode, listOverrides, removeOverride } from "../overrides.js";
import { isOverrideTemplateName, OVERRIDE_TEMPLATES, overrideTemplate } from "../overrideTemplates.js";
import { assembleAggregateInput } from "./assemble.js";
import { type HealthConfig, type ResolvedHealthConfig, resolveHealthConfig } from "./config.js";
import { DpuReplaceOverrideError, HealthOverrideNotFoundError } from "./errors.js";
import { gatherHostHealth } from "./gather.js";
import { HealthMetrics } from "./metrics.js";
import { RepeatedReports, type StoredReportMark } from "./repeatedReports.js";
import {
  readHistory,
  readOverrides,
  refreshReport,
  storeAggregate,
  updateOverrides,
  upsertReport,
} from "./store.js";

export interface HealthServiceDeps {
  database: Database;
  /** Woken after an override changes, so the host's lifecycle re-reads its health at once. */
  engine: Pick<StateEngine, "enqueue">;
  logger: Logger;
  clock?: () => Date;
  /** The `health` config section as written (defaults applied here). */
  config?: HealthConfig;
  /** Where the `racksmith_health_*` metrics go (default: a registry of the service's own). */
  metrics?: Registry;
}

export interface HealthOverrideSummary {
  source: string;
  mode: HealthOverrideMode;
}

/** What `show` answers: the machine's health report and its overrides. */
export interface MachineHealthView {
  machineId: string;
  /** The managed host the machine belongs to (itself for a host). */
  hostId: string;
  kind: "host" | "dpu";
  /** Host: its aggregate health. DPU: the DPU's own view (its agent, BMC, reports and merge overrides). */
  report: HealthReport;
  overrides: HealthOverrideSummary[];
}

/** A host's aggregate health history, newest first. */
export interface HealthHistoryView {
  machineId: string;
  hostId: string;
  entries: HealthHistoryEntry[];
}

export interface AddHealthOverrideOptions {
  /** Default: the template's mode, else merge. */
  mode?: HealthOverrideMode;
  /** The override's key (default: the report's source, or the template's name). */
  source?: string;
  /** Who applied it (an operator, an API client). */
  triggeredBy?: string;
  /** A template's alert message (a ticket, a reason); ignored for a report. */
  message?: string;
}

/** A template by name, or a report (already checked with `parseHealthReport`). */
export type HealthOverrideInput = { template: string } | { report: HealthReport };

export const DEFAULT_HISTORY_PAGE = 50;

/**
 * Keeps each managed host's aggregate health (NICo's `derive_aggregate_health` plus storage): derives it from
 * the DPU agents, the site explorer, sensor rollups, probes, validation and the operator overrides; stores it
 * with a deduplicated, bounded history; refreshes the health metrics; and records probes' reports.
 */
export class HealthService {
  readonly config: ResolvedHealthConfig;
  readonly metrics: HealthMetrics;
  private readonly clock: () => Date;
  /** Reports stored lately, so a repeat is not stored again before `health.unchangedReportRefreshMs`. */
  private readonly repeated: RepeatedReports;

  constructor(private readonly deps: HealthServiceDeps) {
    this.config = resolveHealthConfig(deps.config);
    this.repeated = new RepeatedReports(this.config.unchangedReportRefreshMs);
    this.clock = deps.clock ?? (() => new Date());
    this.metrics = new HealthMetrics(deps.metrics ?? new Registry());
  }

  /** Derives and stores the host's aggregate health now (a DPU id resolves to its host). */
  async aggregate(hostId: string): Promise<HealthReport> {
    return (await this.recompute(await this.hostOf(hostId))).report;
  }

  /** The alerts that keep the host from being allocated (PreventAllocations), from a fresh aggregate. */
  async allocationBlockers(hostId: string): Promise<HealthProbeAlert[]> {
    return allocationBlockers(await this.aggregate(hostId));
  }

  /**
   * A machine's health: for a host its aggregate (derived now, so a silent agent shows at once), for a DPU its
   * own view (derived, not stored). Both with the machine's overrides.
   */
  async show(machineId: string): Promise<MachineHealthView> {
    const found = await findMachine(this.deps.database.db, machineId);
    if (!found) throw new MachineNotFoundError(machineId);
    const overrides = listOverrides(await readOverrides(this.deps.database, machineId)).map((o) => ({
      source: o.report.source,
      mode: o.mode,
    }));
    const kind = found.machine.kind === "dpu" ? "dpu" : "host";
    const report =
      kind === "host"
        ? (await this.recompute(found.hostId)).report
        : await this.dpuView(found.hostId, machineId);
    return { machineId, hostId: found.hostId, kind, report, overrides };
  }

  /** The host's aggregate health history, newest first (a DPU id resolves to its host's). */
  async history(machineId: string, limit: number = DEFAULT_HISTORY_PAGE): Promise<HealthHistoryView> {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new InvalidArgumentError(`limit: ${limit} is not a positive integer`);
    }
    const hostId = await this.hostOf(machineId);
    return { machineId, hostId, entries: await readHistory(this.deps.database, hostId, limit) };
  }

  /**
   * Adds (or replaces) the override of a source on a host or DPU and recomputes the host's aggregate. A DPU
   * takes merge overrides only: a replace override stands for a whole host's health.
   */
  async addOverride(
    machineId: string,
    input: HealthOverrideInput,
    options: AddHealthOverrideOptions = {},
  ): Promise<MachineHealthView> {
    const found = await findMachine(this.deps.database.db, machineId);
    if (!found) throw new MachineNotFoundError(machineId);
    const now = this.clock();
    const { report, mode } = this.overrideReport(input, options, now);
    if (report.source.trim() === "") throw new InvalidArgumentError("source: must not be empty");
    if (mode === "replace" && found.machine.kind === "dpu") {
      throw new DpuReplaceOverrideError(machineId, found.hostId);
    }
    await updateOverrides(this.deps.database, machineId, now, (current) =>
      addOverride(current, report, mode, {
        now,
        ...(options.triggeredBy !== undefined ? { triggeredBy: options.triggeredBy } : {}),
      }),
    );
    this.deps.logger.info({ machineId, source: report.source, mode }, "health override added");
    return this.afterOverrideChange(found.hostId, machineId);
  }

  /** Removes the override of a source; NOT_FOUND naming it when the machine has none from that source. */
  async removeOverride(machineId: string, source: string): Promise<MachineHealthView> {
    const found = await findMachine(this.deps.database.db, machineId);
    if (!found) throw new MachineNotFoundError(machineId);
    await updateOverrides(this.deps.database, machineId, this.clock(), (current) => {
      const has = current.replace?.source === source || Object.hasOwn(current.merges, source);
      if (!has) throw new HealthOverrideNotFoundError(machineId, source);
      return removeOverride(current, source);
    });
    this.deps.logger.info({ machineId, source }, "health override removed");
    return this.afterOverrideChange(found.hostId, machineId);
  }

  /**
   * Stores a source's latest report about a machine (a probe, the BMC monitor's sensor rollup) and recomputes
   * its host's aggregate; the host's lifecycle is woken only when the aggregate's content changed. A report
   * saying what the one stored for its machine and source said less than `health.unchangedReportRefreshMs`
   * ago is not stored again: the aggregate is derived afresh whenever it is read (API, lifecycle) anyway.
   * After that it is refreshed (its time and `observedAt`, one statement) unless another replica stored one since.
   */
  async recordReport(machineId: string, report: HealthReport): Promise<void> {
    const now = this.clock();
    const hash = healthContentHash(report);
    const last = this.repeated.last(machineId, report.source);
    if (this.repeated.isRepeat(last, hash, now)) return;
    if (last?.hash === hash && (await this.refreshed(machineId, report, last, now))) return;
    const found = await findMachine(this.deps.database.db, machineId);
    if (!found) throw new MachineNotFoundError(machineId);
    await upsertReport(this.deps.database, machineId, report, now);
    await this.afterStore(machineId, report.source, { hash, atMs: now.getTime(), hostId: found.hostId });
  }

  /** Stores again a report of unchanged content; false when it must be stored in full after all. */
  private async refreshed(
    machineId: string,
    report: HealthReport,
    last: StoredReportMark,
    now: Date,
  ): Promise<boolean> {
    if (!(await refreshReport(this.deps.database, machineId, report, new Date(last.atMs), now))) return false;
    const mark = { ...last, atMs: now.getTime() };
    if (!this.repeated.aggregateDue(last.hostId, now)) {
      this.repeated.storedNow(machineId, report.source, mark);
      return true;
    }
    try {
      await this.afterStore(machineId, report.source, mark);
      return true;
    } catch (error) {
      // The host this process knew is gone (the machine moved): the full path finds the one it has now.
      if (!(error instanceof MachineNotFoundError)) throw error;
      this.repeated.forget(machineId, report.source);
      return false;
    }
  }

  private async afterStore(machineId: string, source: string, mark: StoredReportMark): Promise<void> {
    const { changed } = await this.recompute(mark.hostId);
    this.repeated.storedNow(machineId, source, mark);
    if (changed) await this.deps.engine.enqueue(MANAGED_HOST_OBJECT_TYPE, mark.hostId);
  }

  private async recompute(hostId: string) {
    const facts = await gatherHostHealth(this.deps.database, hostId);
    if (!facts) {
      this.metrics.forget(hostId);
      throw new MachineNotFoundError(hostId);
    }
    const now = this.clock();
    const derived = deriveAggregateHealth(assembleAggregateInput(facts, this.assembleOptions(now)));
    const stored = await storeAggregate(
      this.deps.database,
      hostId,
      withObservedAt(derived, now),
      now,
      this.config.historyLimit,
    );
    this.repeated.recomputed(hostId, now);
    this.metrics.refresh(hostId, stored.report);
    return stored;
  }

  private async dpuView(hostId: string, dpuId: string): Promise<HealthReport> {
    const facts = await gatherHostHealth(this.deps.database, hostId);
    if (!facts) throw new MachineNotFoundError(dpuId);
    const now = this.clock();
    return withObservedAt(
      deriveAggregateHealth(assembleAggregateInput(facts, { ...this.assembleOptions(now), dpuId })),
      now,
    );
  }

  private assembleOptions(now: Date) {
    return {
      sensorAlertMode: this.config.sensorAlerts,
      heartbeatTimeoutMs: this.config.dpuHeartbeatTimeoutMs,
      now,
    };
  }

  private async afterOverrideChange(hostId: string, machineId: string): Promise<MachineHealthView> {
    await this.recompute(hostId);
    await this.deps.engine.enqueue(MANAGED_HOST_OBJECT_TYPE, hostId);
    return this.show(machineId);
  }

  private async hostOf(machineId: string): Promise<string> {
    const found = await findMachine(this.deps.database.db, machineId);
    if (!found) throw new MachineNotFoundError(machineId);
    return found.hostId;
  }

  private overrideReport(
    input: HealthOverrideInput,
    options: AddHealthOverrideOptions,
    now: Date,
  ): { report: HealthReport; mode: HealthOverrideMode } {
    if ("template" in input) {
      if (!isOverrideTemplateName(input.template)) {
        throw new InvalidArgumentError(
          `template: unknown override template ${JSON.stringify(input.template)} (known: ${Object.keys(OVERRIDE_TEMPLATES).join(", ")})`,
          { details: { template: input.template } },
        );
      }
      const report = overrideTemplate(
        input.template,
        now,
        options.message !== undefined ? { message: options.message } : {},
      );
      return {
        report: { ...report, source: options.source ?? report.source },
        mode: options.mode ?? OVERRIDE_TEMPLATES[input.template].mode,
      };
    }
    return {
      report: { ...input.report, source: options.source ?? input.report.source },
      mode: options.mode ?? "merge",
    };
  }
}

/** An aggregate of inputs that carry no time was observed when it was computed. */
function withObservedAt(report: HealthReport, now: Date): HealthReport {
  return report.observedAt !== undefined ? report : { ...report, observedAt: now.toISOString() };
}
