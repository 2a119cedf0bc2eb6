import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "@racksmith/core";
import {
  type CollectingHealthProbe,
  type HealthProbe,
  type HealthProbeMachine,
  type HealthReport,
  parseHealthReport,
} from "@racksmith/core/health";
import type { Kysely } from "kysely";
import type { RacksmithDatabase } from "../../db/index.js";
import { probeTargetsOf } from "../index.js";

export interface HealthCollectorsOptions {
  database: Kysely<RacksmithDatabase>;
  /** Plugin health probes; the collecting ones are started here, the polled ones are the monitor's. */
  probes: () => readonly HealthProbe[];
  /** Stores a machine's report of one source (the health service's upsert into `health_reports`). */
  recordReport: (machineId: string, report: HealthReport) => Promise<void>;
  /** The operator's `healthProbes.<name>` settings. */
  probeSettings?: (name: string) => Readonly<Record<string, unknown>> | undefined;
  logger: Logger;
  /** Wait before a collector that ended or threw runs again; doubles up to `maxRestartDelayMs`. */
  restartDelayMs?: number;
  maxRestartDelayMs?: number;
}

/** What one collector has done since the service started (for listings and tests). */
export interface CollectorStatus {
  readonly probe: string;
  readonly running: boolean;
  /** Times it ended or threw and was started again. */
  readonly restarts: number;
  /** Reports stored. */
  readonly published: number;
  /** Reports refused (not a valid health report, unknown machine, a failed write), each logged. */
  readonly rejected: number;
  readonly lastError: string | null;
}

interface Collector {
  readonly probe: CollectingHealthProbe;
  running: boolean;
  restarts: number;
  published: number;
  rejected: number;
  lastError: string | null;
  /** Reports are written one after another, so a machine's newer report is never overwritten by an older. */
  writes: Promise<void>;
  delayMs: number;
}

const DEFAULT_RESTART_DELAY_MS = 1_000;
const DEFAULT_MAX_RESTART_DELAY_MS = 60_000;

/**
 * Runs the plugins' collecting health probes (`collect`): each is started once and watches its machines itself
 * (event streams, its own schedule), publishing reports as it finds them. A report is stored under the probe's
 * name as its source, so collectors never overwrite each other or the core's sources. A collector that throws
 * or returns before the service stops is started again after a delay that doubles up to a minute, and is
 * back to the first delay once it stores a report.
 */
export class HealthCollectors {
  private readonly abort = new AbortController();
  private readonly collectors: Collector[] = [];
  private loops: Promise<void>[] = [];

  constructor(private readonly options: HealthCollectorsOptions) {}

  /** Starts every collecting probe (once; a stopped instance stays stopped). */
  start(): void {
    if (this.loops.length > 0 || this.abort.signal.aborted) return;
    for (const probe of this.options.probes()) {
      if (typeof probe.collect !== "function") continue;
      const collector: Collector = {
        probe: probe as CollectingHealthProbe,
        running: false,
        restarts: 0,
        published: 0,
        rejected: 0,
        lastError: null,
        writes: Promise.resolve(),
        delayMs: this.initialDelay(),
      };
      this.collectors.push(collector);
      this.loops.push(this.keepRunning(collector));
    }
  }

  /** Aborts every collector and waits for them and for the reports they published to be stored. */
  async stop(): Promise<void> {
    this.abort.abort(new Error("the health collectors stopped"));
    await Promise.all(this.loops);
    await Promise.all(this.collectors.map((collector) => collector.writes));
  }

  status(): CollectorStatus[] {
    return this.collectors.map(({ probe, running, restarts, published, rejected, lastError }) => ({
      probe: probe.name,
      running,
      restarts,
      published,
      rejected,
      lastError,
    }));
  }

  private async keepRunning(collector: Collector): Promise<void> {
    const { signal } = this.abort;
    const name = collector.probe.name;
    const settings = this.options.probeSettings?.(name);
    const context = {
      signal,
      machines: () => this.machinesOf(collector.probe),
      publish: (machineId: string, report: HealthReport) => this.publish(collector, machineId, report),
      ...(settings ? { settings } : {}),
    };
    while (!signal.aborted) {
      collector.running = true;
      try {
        await collector.probe.collect(context);
        if (signal.aborted) break;
        collector.lastError = "it returned while the service was running";
      } catch (error) {
        if (signal.aborted) break;
        collector.lastError = (error as Error)?.message ?? String(error);
      } finally {
        collector.running = false;
      }
      collector.restarts += 1;
      this.options.logger.warn(
        { probe: name, err: collector.lastError, restartInMs: collector.delayMs },
        "health collector ended; starting it again",
      );
      await sleep(collector.delayMs, undefined, { signal }).catch(() => undefined);
      collector.delayMs = Math.min(collector.delayMs * 2, this.maxDelay());
    }
  }

  private publish(collector: Collector, machineId: string, report: HealthReport): void {
    const name = collector.probe.name;
    const refuse = (error: unknown) => {
      collector.rejected += 1;
      this.options.logger.warn(
        { probe: name, machineId, err: (error as Error)?.message ?? String(error) },
        "health collector report refused",
      );
    };
    let checked: HealthReport;
    try {
      checked = parseHealthReport(
        { ...report, source: name },
        `health probe ${name}'s report for ${machineId}`,
      );
    } catch (error) {
      refuse(error);
      return;
    }
    collector.writes = collector.writes.then(async () => {
      try {
        await this.options.recordReport(machineId, checked);
        collector.published += 1;
        collector.delayMs = this.initialDelay();
      } catch (error) {
        refuse(error);
      }
    });
  }

  /** The machines of the probe's targets, once per target each machine is. */
  private async machinesOf(probe: CollectingHealthProbe): Promise<HealthProbeMachine[]> {
    const rows = await this.options.database
      .selectFrom("machines")
      .select(["id", "kind"])
      .orderBy("id")
      .execute();
    return rows.flatMap((row) =>
      probeTargetsOf(probe.targets, row.kind).map((kind) => ({ machineId: row.id, kind })),
    );
  }

  private initialDelay(): number {
    return this.options.restartDelayMs ?? DEFAULT_RESTART_DELAY_MS;
  }

  private maxDelay(): number {
    return this.options.maxRestartDelayMs ?? DEFAULT_MAX_RESTART_DELAY_MS;
  }
}
