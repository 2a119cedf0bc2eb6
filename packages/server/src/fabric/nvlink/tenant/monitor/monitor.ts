import type { Logger } from "@racksmith/core";
import { isRacksmithError } from "@racksmith/core";
import { tryAcquireWorkLock } from "@racksmith/core/engine";
import type { HealthReport } from "@racksmith/core/health";
import type { NvLinkFabric } from "@racksmith/core/nvlink";
import {
  isFinalNvLinkOperationStatus,
  NVLINK_DEFAULT_PARTITION_NUMBER,
  type NvLinkGpu,
  type NvLinkOperation,
  type NvLinkPartition,
} from "@racksmith/core/nvlink";
import type { Registry } from "prom-client";
import type { Database } from "../../../../db/index.js";
import { mapHostGpus } from "../gpuMapping/index.js";
import { NVLINK_HEALTH_SOURCE, nvlinkCleanupReport } from "../health.js";
import type { NvLinkGpuObservation, NvLinkOperationKind, NvLinkOperationOutcome } from "../tables.js";
import { decideGpu, type GpuPlacement } from "./decide.js";
import { NvLinkMonitorMetrics } from "./metrics.js";
import { type GpuDecision, type OwnedPartition, type PlannedOperation, planOperations } from "./plan.js";
import { type DatabaseSnapshot, loadSnapshot } from "./snapshot.js";

export const NVLINK_MONITOR_LOCK = "nvlink-partition-monitor";

export interface NvLinkMonitorOptions {
  database: Database;
  fabric: NvLinkFabric;
  logger: Logger;
  registry: Registry;
  /** Owner of the work lock (the process id). */
  processorId: string;
  clock?: () => Date;
  /** Delay of the next pass after one that changed something or left operations pending (NICo: 1 s). */
  fastIntervalMs?: number;
  /** Stores a host health report; clears `NvLinkCleanupPending` once the host's GPUs are out. */
  recordReport?: (hostId: string, report: HealthReport) => Promise<void>;
}

export interface NvLinkPassResult {
  /** False when another replica holds the lock or NMX-M could not be read. */
  ran: boolean;
  operations: number;
  /** Operations that did not complete (failed, timed out, cancelled, refused). */
  failures: number;
  /** Timed-out operations still running in NMX-M. */
  pending: number;
}

interface ExecutedOperation {
  planned: PlannedOperation;
  outcome: NvLinkOperationOutcome;
  operation?: NvLinkOperation;
}

/**
 * NICo's NvlPartitionMonitor: every `monitorIntervalMs` (1 s after a pass that changed something), under a
 * work lock, compares what live instances want of their hosts' GPUs with NMX-M's partitions, issues one
 * operation per partition, polls each to completion or timeout, records outcomes and GPU observations, and
 * forgets logical partitions marked deleted once they own no physical partition.
 */
export class NvLinkMonitor {
  readonly metrics: NvLinkMonitorMetrics;
  private readonly clock: () => Date;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<NvLinkPassResult> | undefined;
  private stopped = true;
  /** When the timer fires (epoch ms); infinite while a pass runs. */
  private nextAt = Number.POSITIVE_INFINITY;
  private wakeRequested = false;
  private lastReadOk: boolean | undefined;
  private readonly abort = new AbortController();

  constructor(private readonly options: NvLinkMonitorOptions) {
    this.metrics = new NvLinkMonitorMetrics(options.registry);
    this.clock = options.clock ?? (() => new Date());
  }

  start(): void {
    if (!this.stopped || this.abort.signal.aborted) return;
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.abort.abort(new Error("the NVLink monitor stopped"));
    await this.running?.catch(() => undefined);
  }

  /** Whether the last pass could read NMX-M; undefined before the first. */
  reachable(): boolean | undefined {
    return this.lastReadOk;
  }

  /** Asks for a pass soon (an instance or partition changed); never postpones one already due sooner. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wakeRequested = true;
      return;
    }
    if (this.nextAt - Date.now() > this.fastMs()) this.schedule(this.fastMs());
  }

  /** One pass now; `lock: false` skips the work lock (tests, the CLI). */
  async runOnce(options: { lock?: boolean } = {}): Promise<NvLinkPassResult> {
    while (this.running) await this.running.catch(() => undefined);
    const run = this.pass(options.lock ?? true);
    this.running = run;
    try {
      return await run;
    } finally {
      this.running = undefined;
    }
  }

  private fastMs(): number {
    return Math.min(this.options.fastIntervalMs ?? 1_000, this.options.fabric.monitor.monitorIntervalMs);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.nextAt = Date.now() + delayMs;
    this.timer = setTimeout(async () => {
      let next = this.options.fabric.monitor.monitorIntervalMs;
      this.nextAt = Number.POSITIVE_INFINITY;
      try {
        this.wakeRequested = false;
        const result = await this.runOnce();
        if (result.ran && (result.operations > 0 || result.pending > 0)) next = this.fastMs();
        if (this.wakeRequested) next = this.fastMs();
      } catch (error) {
        this.options.logger.error({ err: (error as Error).message }, "NVLink monitor pass failed");
      }
      this.schedule(next);
    }, delayMs);
    this.timer.unref?.();
  }

  private async pass(lock: boolean): Promise<NvLinkPassResult> {
    const { database, logger } = this.options;
    const idle: NvLinkPassResult = { ran: false, operations: 0, failures: 0, pending: 0 };
    if (lock) {
      const acquired = await tryAcquireWorkLock(database.db, {
        key: NVLINK_MONITOR_LOCK,
        owner: this.options.processorId,
        now: this.clock(),
        // Long enough for a pass that waits for operations; `releaseLock` shortens it when the pass ends.
        holdMs:
          this.options.fabric.monitor.monitorIntervalMs + 2 * this.options.fabric.monitor.operationTimeoutMs,
      });
      if (!acquired) {
        logger.debug(
          { lock: NVLINK_MONITOR_LOCK },
          "NVLink monitor: another replica holds the lock; skipping this pass",
        );
        return idle;
      }
    }
    const endTimer = this.metrics.iterationLatency.startTimer();
    const signal = this.abort.signal;
    let result = idle;
    try {
      result = await this.reconcile(signal);
      return result;
    } finally {
      endTimer();
      if (lock) await this.releaseLock(result).catch(() => undefined);
    }
  }

  /**
   * The lock means "done for this interval" for every replica; after a pass that changed something the next
   * one is due in a second, so the lock is let go at once.
   */
  private async releaseLock(result: NvLinkPassResult): Promise<void> {
    const now = this.clock().getTime();
    const busy = result.operations > 0 || result.pending > 0;
    // A little under the interval, so this replica's own next pass finds it expired.
    const expiresAt = new Date(busy ? now : now + 0.9 * this.options.fabric.monitor.monitorIntervalMs);
    await this.options.database.db
      .updateTable("work_locks")
      .set({ expires_at: expiresAt })
      .where("work_key", "=", NVLINK_MONITOR_LOCK)
      .where("owner", "=", this.options.processorId)
      .execute();
  }

  private async reconcile(signal: AbortSignal): Promise<NvLinkPassResult> {
    const { database, fabric, logger } = this.options;
    const idle: NvLinkPassResult = { ran: false, operations: 0, failures: 0, pending: 0 };
    let gpus: NvLinkGpu[];
    let partitions: NvLinkPartition[];
    try {
      [gpus, partitions] = await Promise.all([
        fabric.listGpus({ signal }),
        fabric.listPartitions({ signal }),
      ]);
      this.metrics.connectErrors.reset();
      this.lastReadOk = true;
    } catch (error) {
      const code = isRacksmithError(error) ? error.code : "error";
      this.metrics.connectErrors.inc({ error: code });
      this.lastReadOk = false;
      logger.warn({ err: (error as Error).message, code }, "NVLink monitor: cannot read NMX-M");
      return idle;
    }
    const snapshot = await loadSnapshot(database);
    const pending = await this.checkUnfinished(snapshot);
    await this.syncOwnedPartitions(snapshot, partitions);
    const decisions = await this.decideAndObserve(snapshot, gpus, partitions);
    const owned: OwnedPartition[] = snapshot.physicalPartitions.map((p) => ({
      logicalPartitionId: p.logicalPartitionId,
      domain: p.domain,
      partitionId: p.nmxmId,
    }));
    const members = new Map(partitions.map((p) => [p.id, p.gpus]));
    const busy = new Set(pending.map((p) => `${p.target}|${p.domain}`));
    const planned = planOperations({ decisions, members, owned }).filter(
      (op) => !busy.has(`${op.target}|${op.domain}`),
    );
    const executed = await Promise.all(planned.map((op) => this.execute(op)));
    if (executed.some((e) => e.outcome === "completed")) await this.recordCompleted(executed);
    await this.finalizeDeleted();
    this.metrics.logicalPartitions.set(snapshot.logicalPartitions.length);
    this.metrics.nmxmPartitions.set(partitions.length);
    this.metrics.nmxmGpus.set(gpus.length);
    const failures = executed.filter((e) => e.outcome !== "completed").length;
    const stillPending = pending.length + executed.filter((e) => e.outcome === "timedout").length;
    return { ran: true, operations: executed.length, failures, pending: stillPending };
  }

  /** Operations a previous pass stopped waiting for: recorded once final, else their target stays busy. */
  private async checkUnfinished(snapshot: DatabaseSnapshot): Promise<DatabaseSnapshot["unfinished"]> {
    const stillRunning: DatabaseSnapshot["unfinished"] = [];
    for (const row of snapshot.unfinished) {
      let operation: NvLinkOperation;
      try {
        operation = await this.options.fabric.getOperation(row.operationId, { signal: this.abort.signal });
      } catch {
        // Unknown or expired: the next plan starts over from NMX-M's partitions.
        await this.recordOutcome(
          row.target,
          row.domain,
          row.kind,
          row.operationId,
          "error",
          "operation is gone from NMX-M",
          row.gpus,
        );
        continue;
      }
      if (!isFinalNvLinkOperationStatus(operation.status)) {
        this.metrics.changesApplied.inc({ operation: "pending", status: "timedout" });
        stillRunning.push(row);
        continue;
      }
      const outcome =
        operation.status === "in-progress" || operation.status === "pending" ? "timedout" : operation.status;
      await this.recordOutcome(
        row.target,
        row.domain,
        row.kind,
        row.operationId,
        outcome,
        operation.error ?? null,
        row.gpus,
      );
      if (row.kind === "create" && outcome === "completed") {
        const partitions = await this.options.fabric.listPartitions({ signal: this.abort.signal });
        await this.adoptCreated(row.target, row.domain, row.gpus, operation, partitions);
      }
    }
    return stillRunning;
  }

  /**
   * Forgets owned partitions NMX-M no longer has (NICo's stale check) and adopts partitions this monitor
   * created whose creation it stopped waiting for (named after their logical partition).
   */
  private async syncOwnedPartitions(
    snapshot: DatabaseSnapshot,
    partitions: readonly NvLinkPartition[],
  ): Promise<void> {
    const { db } = this.options.database;
    const present = new Set(partitions.map((p) => p.id));
    let stale = 0;
    for (const owned of snapshot.physicalPartitions) {
      if (present.has(owned.nmxmId)) continue;
      stale++;
      await db
        .deleteFrom("nvlink_physical_partitions")
        .where("logical_partition_id", "=", owned.logicalPartitionId)
        .where("domain", "=", owned.domain)
        .execute();
    }
    this.metrics.stalePartitionsDeleted.set(stale);
    snapshot.physicalPartitions = snapshot.physicalPartitions.filter((p) => present.has(p.nmxmId));
    const ownedIds = new Set(snapshot.physicalPartitions.map((p) => p.nmxmId));
    const ownedKeys = new Set(snapshot.physicalPartitions.map((p) => `${p.logicalPartitionId}|${p.domain}`));
    for (const partition of partitions) {
      if (ownedIds.has(partition.id) || partition.isDefault || partition.domain === null) continue;
      const lp = snapshot.logicalPartitions.find((l) => partition.name.startsWith(`${l.id}/`));
      if (!lp || ownedKeys.has(`${lp.id}|${partition.domain}`)) continue;
      await this.insertOwned(lp.id, partition.domain, partition);
      snapshot.physicalPartitions.push({
        logicalPartitionId: lp.id,
        domain: partition.domain,
        nmxmId: partition.id,
      });
      ownedKeys.add(`${lp.id}|${partition.domain}`);
    }
    this.metrics.physicalPartitions.set(snapshot.physicalPartitions.length);
  }

  /** The decision table for every mapped GPU of every host; writes each host's observation. */
  private async decideAndObserve(
    snapshot: DatabaseSnapshot,
    gpus: readonly NvLinkGpu[],
    partitions: readonly NvLinkPartition[],
  ): Promise<GpuDecision[]> {
    const partitionOfGpu = new Map<string, NvLinkPartition>();
    for (const partition of partitions) for (const gpu of partition.gpus) partitionOfGpu.set(gpu, partition);
    const ownerOf = new Map(snapshot.physicalPartitions.map((p) => [p.nmxmId, p.logicalPartitionId]));
    const usable = new Set(snapshot.logicalPartitions.filter((l) => !l.deleted).map((l) => l.id));
    const decisions: GpuDecision[] = [];
    let mismatches = 0;
    const now = this.clock();
    for (const host of snapshot.hosts) {
      if (host.gpus.length === 0) continue;
      const mapping = mapHostGpus(host.gpus, gpus);
      mismatches += mapping.problems.length;
      const live = host.instance && !host.instance.releaseRequested ? host.instance : null;
      const desiredOf = new Map(
        (live?.config.nvlink?.gpus ?? []).map((g) => [g.deviceInstance, g.logicalPartitionId]),
      );
      const observations: NvLinkGpuObservation[] = [];
      for (const { deviceInstance, gpu } of mapping.gpus) {
        const partition = partitionOfGpu.get(gpu.id);
        const placement = placementOf(partition, ownerOf);
        const desired = desiredOf.get(deviceInstance) ?? null;
        const action = decideGpu({
          placement,
          hasInstance: live !== null,
          desired,
          desiredUsable: desired !== null && usable.has(desired),
        });
        decisions.push({ gpuId: gpu.id, domain: gpu.domain, placement, action, desired });
        observations.push({
          deviceInstance,
          gpuId: gpu.id,
          domain: gpu.domain,
          deviceUid: gpu.deviceUid,
          partitionNumber: partition?.number ?? null,
          partitionId: partition?.id ?? null,
          logicalPartitionId: placement.kind === "ours" ? placement.logicalPartitionId : null,
        });
      }
      const values = {
        machine_id: host.hostId,
        gpus: JSON.stringify(observations),
        problems: JSON.stringify(mapping.problems),
        observed_at: now,
      };
      await this.options.database.db
        .insertInto("nvlink_gpu_observations")
        .values(values)
        .onConflict((oc) =>
          oc
            .column("machine_id")
            .doUpdateSet({ gpus: values.gpus, problems: values.problems, observed_at: now }),
        )
        .execute();
    }
    this.metrics.machineStatusUpdates.set(snapshot.hosts.filter((h) => h.gpus.length > 0).length);
    await this.clearCleanupAlerts();
    this.metrics.mismatches.set(mismatches);
    return decisions;
  }

  /** Hosts flagged `NvLinkCleanupPending` whose GPUs are now in no tenant or foreign partition get a clear report. */
  private async clearCleanupAlerts(): Promise<void> {
    if (!this.options.recordReport) return;
    const flagged = await this.options.database.db
      .selectFrom("health_reports")
      .select(["machine_id", "report"])
      .where("source", "=", NVLINK_HEALTH_SOURCE)
      .execute();
    for (const row of flagged) {
      if ((row.report as HealthReport).alerts.length === 0) continue;
      const observation = await this.options.database.db
        .selectFrom("nvlink_gpu_observations")
        .select("gpus")
        .where("machine_id", "=", row.machine_id)
        .executeTakeFirst();
      const gpus = (observation?.gpus ?? []) as NvLinkGpuObservation[];
      const held = gpus.filter(
        (gpu) =>
          gpu.logicalPartitionId !== null ||
          (gpu.partitionNumber !== null && gpu.partitionNumber !== NVLINK_DEFAULT_PARTITION_NUMBER),
      );
      if (held.length === 0)
        await this.options.recordReport(row.machine_id, nvlinkCleanupReport([], this.clock()));
    }
  }

  /** Starts one operation and polls it to a final state or the timeout; records how it ended. */
  private async execute(planned: PlannedOperation): Promise<ExecutedOperation> {
    const { fabric, logger } = this.options;
    const signal = this.abort.signal;
    const kind: NvLinkOperationKind = planned.kind;
    const label = planned.kind === "remove_unknown" ? "remove_default_partition" : planned.kind;
    const started = performance.now();
    let operationId: string | null = null;
    try {
      const ref =
        planned.kind === "create"
          ? await fabric.createPartition({ name: planned.name, gpus: planned.gpus }, { signal })
          : planned.kind === "update"
            ? await fabric.updatePartition(planned.partitionId, { gpus: planned.gpus }, { signal })
            : await fabric.deletePartition(planned.partitionId, { signal });
      operationId = ref.operationId;
      await this.recordOutcome(
        planned.target,
        planned.domain,
        kind,
        operationId,
        "pending",
        null,
        planned.changed,
      );
      const operation = await fabric.waitForOperation(operationId, { signal });
      const outcome: NvLinkOperationOutcome = isFinalNvLinkOperationStatus(operation.status)
        ? (operation.status as NvLinkOperationOutcome)
        : "timedout";
      const error =
        outcome === "timedout"
          ? `timed out after ${fabric.monitor.operationTimeoutMs} ms (NMX-M status ${operation.status})`
          : (operation.error ?? (outcome === "completed" ? null : `NMX-M reported ${operation.status}`));
      await this.recordOutcome(
        planned.target,
        planned.domain,
        kind,
        operationId,
        outcome,
        error,
        planned.changed,
      );
      this.metrics.changesApplied.inc({ operation: label, status: outcome });
      if (outcome === "completed")
        this.metrics.configApplyLatency.observe((performance.now() - started) / 1000);
      if (outcome !== "completed") {
        logger.warn(
          { operationId, kind, target: planned.target, outcome, error },
          "NVLink operation did not complete",
        );
      }
      return { planned, outcome, operation };
    } catch (error) {
      const message = (error as Error).message;
      await this.recordOutcome(
        planned.target,
        planned.domain,
        kind,
        operationId,
        "error",
        message,
        planned.changed,
      );
      this.metrics.changesApplied.inc({ operation: label, status: "failed" });
      logger.warn({ kind, target: planned.target, err: message }, "NVLink operation could not be started");
      return { planned, outcome: "error" };
    } finally {
      this.metrics.operationLatency.observe({ operation: label }, (performance.now() - started) / 1000);
    }
  }

  /** Completed creates become owned partitions; completed removals of owned ones are forgotten. */
  private async recordCompleted(executed: readonly ExecutedOperation[]): Promise<void> {
    const { db } = this.options.database;
    let partitions: NvLinkPartition[] | undefined;
    for (const { planned, outcome, operation } of executed) {
      if (outcome !== "completed") continue;
      if (planned.kind === "create") {
        partitions ??= await this.options.fabric.listPartitions({ signal: this.abort.signal });
        await this.adoptCreated(planned.target, planned.domain, planned.gpus, operation, partitions);
      } else if (planned.kind === "remove") {
        await db
          .deleteFrom("nvlink_physical_partitions")
          .where("logical_partition_id", "=", planned.target)
          .where("nmxm_id", "=", planned.partitionId)
          .execute();
      }
    }
  }

  /** NICo takes the created partition's id from the one whose member set equals the requested GPUs. */
  private async adoptCreated(
    logicalPartitionId: string,
    domain: string,
    gpus: readonly string[],
    operation: NvLinkOperation | undefined,
    partitions: readonly NvLinkPartition[],
  ): Promise<void> {
    const wanted = [...gpus].sort().join(",");
    const partition =
      partitions.find((p) => operation?.partitionId !== undefined && p.id === operation.partitionId) ??
      partitions.find((p) => !p.isDefault && [...p.gpus].sort().join(",") === wanted);
    if (!partition) {
      this.options.logger.warn(
        { logicalPartitionId, domain },
        "NVLink monitor: created partition not found in NMX-M",
      );
      return;
    }
    await this.insertOwned(logicalPartitionId, domain, partition);
  }

  private async insertOwned(
    logicalPartitionId: string,
    domain: string,
    partition: NvLinkPartition,
  ): Promise<void> {
    const exists = await this.options.database.db
      .selectFrom("nvlink_logical_partitions")
      .select("id")
      .where("id", "=", logicalPartitionId)
      .executeTakeFirst();
    if (!exists) return;
    await this.options.database.db
      .insertInto("nvlink_physical_partitions")
      .values({
        logical_partition_id: logicalPartitionId,
        domain,
        nmxm_id: partition.id,
        number: partition.number,
        name: partition.name,
        created_at: this.clock(),
      })
      .onConflict((oc) =>
        oc
          .columns(["logical_partition_id", "domain"])
          .doUpdateSet({ nmxm_id: partition.id, number: partition.number, name: partition.name }),
      )
      .execute();
  }

  /** Logical partitions marked deleted that own nothing any more are gone (NICo's final_delete). */
  private async finalizeDeleted(): Promise<void> {
    const { db } = this.options.database;
    const gone = await db
      .selectFrom("nvlink_logical_partitions")
      .select("id")
      .where("deleted_at", "is not", null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("nvlink_physical_partitions")
              .select("domain")
              .whereRef(
                "nvlink_physical_partitions.logical_partition_id",
                "=",
                "nvlink_logical_partitions.id",
              ),
          ),
        ),
      )
      .execute();
    for (const { id } of gone) {
      await db.deleteFrom("nvlink_operations").where("target", "=", id).execute();
      await db.deleteFrom("nvlink_logical_partitions").where("id", "=", id).execute();
    }
  }

  private async recordOutcome(
    target: string,
    domain: string,
    kind: NvLinkOperationKind,
    operationId: string | null,
    status: NvLinkOperationOutcome,
    error: string | null,
    gpus: readonly string[],
  ): Promise<void> {
    const now = this.clock();
    const finished = status === "pending" ? null : now;
    const values = {
      target,
      domain,
      kind,
      operation_id: operationId,
      status,
      error,
      gpus: JSON.stringify(gpus),
      started_at: now,
      finished_at: finished,
    };
    await this.options.database.db
      .insertInto("nvlink_operations")
      .values(values)
      .onConflict((oc) =>
        oc.columns(["target", "domain"]).doUpdateSet({
          kind,
          operation_id: operationId,
          status,
          error,
          gpus: values.gpus,
          ...(status === "pending" ? { started_at: now } : {}),
          finished_at: finished,
        }),
      )
      .execute();
  }
}

function placementOf(
  partition: NvLinkPartition | undefined,
  ownerOf: ReadonlyMap<string, string>,
): GpuPlacement {
  if (!partition) return { kind: "none" };
  const owner = ownerOf.get(partition.id);
  if (owner !== undefined) return { kind: "ours", logicalPartitionId: owner, partitionId: partition.id };
  if (partition.isDefault) return { kind: "default", partitionId: partition.id };
  return { kind: "unknown", partitionId: partition.id };
}
