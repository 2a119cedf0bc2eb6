import type { BmcDriver, Logger } from "@racksmith/core";
import { InvalidArgumentError, isRacksmithError, NotSupportedError } from "@racksmith/core";
import type { HealthProbe, HealthProbeTarget, HealthReport, PolledHealthProbe } from "@racksmith/core/health";
import { HEALTH_SOURCES } from "@racksmith/core/health";
import type { Kysely } from "kysely";
import type { Registry } from "prom-client";
import type { RacksmithDatabase } from "../../db/index.js";
import { forEachConcurrently } from "../../explorer/concurrency.js";
import type { MachineRow } from "../../explorer/index.js";
import type { BmcAccess, LifecycleBmc, ServiceProbeCache } from "../../lifecycle/bmc/index.js";
import { ExpositionRegistry } from "../../metrics/index.js";
import { probeTargetsOf } from "../index.js";
import type { ResolvedMonitorConfig } from "./config.js";
import { collectEventLogs } from "./eventLogs.js";
import { BmcMonitorMetrics, type CollectionKind, type MonitoredBmc } from "./metrics.js";
import { collectReadings, type MonitorBmc } from "./readings.js";
import { sensorReport } from "./sensorReport.js";

/** What one collection may do; `runOnce` does all of them unless told otherwise. */
export const MONITOR_TASKS = ["sensors", "firmware", "eventLogs", "probes"] as const;
export type MonitorTask = (typeof MONITOR_TASKS)[number];

/** A BMC session whose drivers expose the monitor's operations (tests hand in fakes of just these). */
export type MonitorBmcAccess = (signal: AbortSignal) => {
  of(machine: MachineRow): Promise<MonitorBmc | LifecycleBmc>;
  close(): Promise<void>;
};

export interface BmcMonitorOptions {
  database: Kysely<RacksmithDatabase>;
  /** The lifecycle's `createBmcAccess` (stored credentials, the explorer's driver) or a fake. */
  bmcAccess: BmcAccess | MonitorBmcAccess;
  /** Stores a machine's report of one source (the health service's upsert into `health_reports`). */
  recordReport: (machineId: string, report: HealthReport) => Promise<void>;
  /** Where the metrics go; default a registry of its own (`monitor.registry`, for a standalone /metrics). */
  registry?: Registry;
  logger: Logger;
  config: ResolvedMonitorConfig;
  clock?: () => Date;
  random?: () => number;
  /** Plugin health probes; the polled ones run here per machine every `intervalMs`. */
  probes?: () => readonly HealthProbe[];
  /** The operator's settings of a probe (`HealthProbeContext.settings`). */
  probeSettings?: (name: string) => Readonly<Record<string, unknown>> | undefined;
  /**
   * The service descriptions `bmcAccess` keeps between passes (`createBmcAccess({ probes })`): the monitor drops a
   * BMC's when a collection on it fails, and those of machines that left the fleet.
   */
  serviceProbes?: ServiceProbeCache;
}

export interface MonitorPassResult {
  /** Machines (host and DPU BMCs) in the pass. */
  machines: number;
  /** Collections run (one per machine and task; each probe counts once). */
  collections: number;
  errors: number;
  durationMs: number;
}

/**
 * The hardware-health monitor (NICo's carbide-hardware-health): for every host and DPU BMC, sensors →
 * `hardware-health` report + gauges, firmware inventory → gauges, event logs → JSON lines, and the plugins'
 * polled probes, each at its own interval. A pass visits every machine with at most `concurrency` BMCs at
 * once; each BMC's request cap is shared with every other caller by the connection pool.
 *
 * It runs per process and takes no work lock: with several replicas, run it in one of them (or as
 * `racksmith monitor`) — two monitors only double the BMC load and write the same reports.
 */
export class BmcMonitor {
  readonly metrics: BmcMonitorMetrics;
  readonly registry: Registry;
  private readonly clock: () => Date;
  private readonly random: () => number;
  /**
   * Per machine: when each task (and `probe:<name>:<kind>`) last ran (epoch ms), in a plain object (at 10,000
   * BMCs a Map per machine weighed several times more).
   */
  private readonly lastRun = new Map<string, Record<string, number>>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<MonitorPassResult> | undefined;
  private stopped = true;
  private readonly abort = new AbortController();

  constructor(private readonly options: BmcMonitorOptions) {
    this.registry = options.registry ?? new ExpositionRegistry();
    this.metrics = new BmcMonitorMetrics(this.registry);
    this.clock = options.clock ?? (() => new Date());
    this.random = options.random ?? Math.random;
  }

  /** Starts the periodic passes (the first one soon, spread by the jitter). */
  start(): void {
    if (!this.stopped || this.abort.signal.aborted) return;
    this.stopped = false;
    this.schedule(this.random() * Math.min(this.options.config.jitterMs, this.periodMs()));
  }

  /** Stops scheduling, aborts the BMC requests in flight and waits for the pass to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.abort.abort(new Error("the BMC monitor stopped"));
    await this.running?.catch(() => undefined);
  }

  /** One pass over every machine doing `tasks` (default all) whether due or not; for tests, benches, the CLI. */
  runOnce(options: { tasks?: readonly MonitorTask[] } = {}): Promise<MonitorPassResult> {
    return this.pass(new Set(options.tasks ?? MONITOR_TASKS), false);
  }

  /** The loop period: the shortest interval, so no task waits a whole pass longer than it should. */
  private periodMs(): number {
    const { sensorIntervalMs, firmwareIntervalMs, eventLogIntervalMs, eventLogDir } = this.options.config;
    const probeIntervals = this.polledProbes().map((p) => p.intervalMs ?? sensorIntervalMs);
    return Math.min(
      sensorIntervalMs,
      firmwareIntervalMs,
      ...(eventLogDir ? [eventLogIntervalMs] : []),
      ...probeIntervals,
    );
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(async () => {
      await this.pass(new Set(MONITOR_TASKS), true).catch((error: unknown) =>
        this.options.logger.error({ err: (error as Error).message }, "BMC monitor pass failed"),
      );
      this.schedule(this.periodMs() + this.random() * this.options.config.jitterMs);
    }, delayMs);
    this.timer.unref?.();
  }

  private async pass(tasks: ReadonlySet<MonitorTask>, onlyDue: boolean): Promise<MonitorPassResult> {
    // Passes never overlap: a runOnce during a periodic pass waits for it, then runs.
    while (this.running) await this.running.catch(() => undefined);
    const run = this.visitAll(tasks, onlyDue);
    this.running = run;
    try {
      return await run;
    } finally {
      this.running = undefined;
    }
  }

  private async visitAll(tasks: ReadonlySet<MonitorTask>, onlyDue: boolean): Promise<MonitorPassResult> {
    const started = performance.now();
    const machines = await this.options.database.selectFrom("machines").selectAll().orderBy("id").execute();
    const present = new Set(machines.map((m) => m.id));
    this.metrics.retain(present);
    this.options.serviceProbes?.retain(new Set(machines.map((m) => m.bmc_address)));
    for (const id of this.lastRun.keys()) if (!present.has(id)) this.lastRun.delete(id);
    const totals = { collections: 0, errors: 0 };
    await forEachConcurrently(machines, this.options.config.concurrency, async (machine) => {
      if (this.abort.signal.aborted) return;
      const result = await this.visit(machine, tasks, onlyDue);
      totals.collections += result.collections;
      totals.errors += result.errors;
    });
    const durationMs = performance.now() - started;
    if (totals.errors > 0) {
      this.options.logger.warn(
        { machines: machines.length, errors: totals.errors, durationMs: Math.round(durationMs) },
        "BMC monitor pass had collection errors (see racksmith_bmc_collection_errors_total)",
      );
    }
    return { machines: machines.length, ...totals, durationMs };
  }

  /** Every due task of one machine, over one BMC session. */
  private async visit(
    machine: MachineRow,
    tasks: ReadonlySet<MonitorTask>,
    onlyDue: boolean,
  ): Promise<{ collections: number; errors: number }> {
    const { config } = this.options;
    const now = this.clock();
    const last = this.lastRunOf(machine.id);
    const due = (key: string, intervalMs: number): boolean =>
      !onlyDue || now.getTime() - (last[key] ?? Number.NEGATIVE_INFINITY) >= intervalMs;
    const jobs: Array<{ key: string; kind: CollectionKind; run: (bmc: MonitorBmc) => Promise<void> }> = [];
    const bmcId: MonitoredBmc = { machineId: machine.id, bmcMac: machine.bmc_mac, serial: machine.serial };
    if (tasks.has("sensors") && due("sensors", config.sensorIntervalMs)) {
      jobs.push({ key: "sensors", kind: "sensors", run: (bmc) => this.sensors(bmc, bmcId, now) });
    }
    if (tasks.has("firmware") && due("firmware", config.firmwareIntervalMs)) {
      const run = async (bmc: MonitorBmc) => this.metrics.setFirmware(bmcId, await bmc.firmwareInventory());
      jobs.push({ key: "firmware", kind: "firmware", run });
    }
    const dir = config.eventLogDir;
    if (dir && tasks.has("eventLogs") && due("eventLogs", config.eventLogIntervalMs)) {
      const target = { id: machine.id, bmcMac: machine.bmc_mac };
      const run = async (bmc: MonitorBmc) => {
        await collectEventLogs({ db: this.options.database, bmc, machine: target, dir, now });
      };
      jobs.push({ key: "eventLogs", kind: "eventLogs", run });
    }
    if (tasks.has("probes")) {
      for (const probe of this.polledProbes()) {
        for (const kind of probeTargetsOf(probe.targets, machine.kind)) {
          const key = `probe:${probe.name}:${kind}`;
          if (!due(key, probe.intervalMs ?? config.sensorIntervalMs)) continue;
          jobs.push({ key, kind: "probe", run: (bmc) => this.probe(probe, kind, machine.id, bmc, now) });
        }
      }
    }
    if (jobs.length === 0) return { collections: 0, errors: 0 };

    const session = this.options.bmcAccess(this.abort.signal);
    let errors = 0;
    try {
      let bmc: MonitorBmc;
      try {
        bmc = asMonitorBmc(await session.of(machine));
      } catch (error) {
        this.failed(machine, "connect", error);
        return { collections: 0, errors: 1 };
      }
      for (const job of jobs) {
        if (this.abort.signal.aborted) break;
        const started = performance.now();
        try {
          await job.run(bmc);
          last[job.key] = now.getTime();
        } catch (error) {
          errors += 1;
          this.failed(machine, job.kind, error);
        } finally {
          this.metrics.duration.observe({ kind: job.kind }, (performance.now() - started) / 1000);
        }
      }
    } finally {
      await session.close().catch(() => undefined);
    }
    return { collections: jobs.length, errors };
  }

  private async sensors(bmc: MonitorBmc, id: MonitoredBmc, now: Date): Promise<void> {
    const readings = await collectReadings(bmc);
    this.metrics.setSensors(id, readings);
    await this.options.recordReport(id.machineId, sensorReport(readings, now));
  }

  /**
   * A probe's report is stored under a source of its own, so probes never overwrite each other or the core's
   * sources: `hardware-health.<name>` for BMC runs (a BMC rollup, like the sensors), `<name>` otherwise.
   */
  private async probe(
    probe: PolledHealthProbe,
    kind: HealthProbeTarget,
    machineId: string,
    bmc: MonitorBmc,
    now: Date,
  ): Promise<void> {
    const settings = this.options.probeSettings?.(probe.name);
    const driver = kind === "bmc" && isFullDriver(bmc) ? bmc : undefined;
    const report = await probe.run({
      machineId,
      kind,
      signal: this.abort.signal,
      now,
      ...(driver ? { bmc: driver } : {}),
      ...(settings ? { settings } : {}),
    });
    const source = kind === "bmc" ? `${HEALTH_SOURCES.hardwareHealth}.${probe.name}` : probe.name;
    await this.options.recordReport(machineId, { ...report, source });
  }

  /** Counts and logs a failed collection; the BMC is described afresh at the next contact. */
  private failed(machine: MachineRow, kind: CollectionKind, error: unknown): void {
    const machineId = machine.id;
    // A BMC that lacks an operation is described right; any other failure may come from a changed service.
    if (!(error instanceof NotSupportedError)) this.options.serviceProbes?.delete(machine.bmc_address);
    const code = isRacksmithError(error) ? error.code : "error";
    this.metrics.countError({ machineId, bmcMac: machine.bmc_mac, serial: machine.serial }, kind, code);
    this.options.logger.debug(
      { machineId, kind, code, err: (error as Error)?.message ?? String(error) },
      "BMC collection failed",
    );
  }

  private polledProbes(): PolledHealthProbe[] {
    return (this.options.probes?.() ?? []).filter(
      (probe): probe is PolledHealthProbe => typeof probe.run === "function",
    );
  }

  private lastRunOf(machineId: string): Record<string, number> {
    let last = this.lastRun.get(machineId);
    if (!last) {
      last = {};
      this.lastRun.set(machineId, last);
    }
    return last;
  }
}

const MONITOR_OPERATIONS = [
  "sensors",
  "thermal",
  "powerMetrics",
  "firmwareInventory",
  "systemEventLog",
  "bmcEventLog",
] as const;

/**
 * `BmcSession.of` is typed with the lifecycle's operations only, but hands out whole drivers; the monitor
 * checks for the ones it calls instead of trusting a cast.
 */
function asMonitorBmc(bmc: MonitorBmc | LifecycleBmc): MonitorBmc {
  const candidate = bmc as Partial<Record<string, unknown>>;
  const missing = MONITOR_OPERATIONS.filter((name) => typeof candidate[name] !== "function");
  if (missing.length > 0) {
    throw new InvalidArgumentError(`the BMC access gave a driver without ${missing.join(", ")}`);
  }
  return bmc as MonitorBmc;
}

function isFullDriver(bmc: MonitorBmc): bmc is MonitorBmc & BmcDriver {
  const candidate = bmc as Partial<BmcDriver>;
  return typeof candidate.explore === "function" && typeof candidate.power === "function";
}
