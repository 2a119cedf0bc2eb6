import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Transaction } from "kysely";
import { InvalidArgumentError } from "../errors/index.js";
import { type Logger, silentLogger } from "../logging/index.js";
import { type Metrics, noMetrics } from "../metrics/index.js";
import { type EngineConfig, type ResolvedEngineConfig, resolveEngineConfig } from "./config.js";
import { channelName, type EngineDatabase, type EngineTables } from "./database.js";
import { ObjectAlreadyExistsError, ObjectNotFoundError, UnknownObjectTypeError } from "./errors.js";
import { FinalWriteBatcher, finalWriteStatements } from "./finalWriteBatcher.js";
import { LeaseHeartbeat } from "./leaseHeartbeat.js";
import { EngineMetrics } from "./metrics.js";
import { insertObject, listObjects, readHistory, readObject } from "./objectStore.js";
import { PeriodicEnqueuer } from "./periodicEnqueuer.js";
import { enqueueObject, releaseAllClaims, releaseClaims } from "./queue.js";
import type { ObjectRow } from "./records.js";
import { describeError, type MachineRuntime, stateLabel, stateSla } from "./runtime.js";
import { sampleGauges } from "./stats.js";
import type { ObjectStateView, StateMachine, TaggedState } from "./types.js";
import { TypeWorker } from "./typeWorker.js";
import { releaseAllWorkLocks } from "./workLock.js";

export interface StateEngineOptions {
  database: EngineDatabase;
  machines: readonly StateMachine[];
  /** This engine's claim owner id; must be unique per running engine. Default: host, pid and a random part. */
  processorId?: string;
  config?: Partial<EngineConfig>;
  logger?: Logger;
  /** Where the metrics go (`racksmith_state_*`); default nowhere. */
  metrics?: Metrics;
  /**
   * Checked once before the engine starts claiming; the host refuses a database whose schema is behind
   * (for example one with pending migrations) by throwing.
   */
  checkDatabase?: () => Promise<void>;
  /** Time source for every timestamp the engine writes and compares (tests move it). */
  clock?: () => Date;
  /**
   * Release every claim and work lock at start: only for a database no other engine can use (embedded
   * PGlite), where any left is from a run that was killed, so nothing waits for a lease or lock to expire.
   */
  releaseClaimsAtStart?: boolean;
}

const DEFAULT_LIST_LIMIT = 100;
const MAX_LIST_LIMIT = 1_000;

/**
 * Runs state machines over the objects stored in the database: claims due objects, runs their handlers and
 * persists the outcomes, across any number of processes sharing one database.
 */
export class StateEngine {
  readonly processorId: string;
  readonly config: ResolvedEngineConfig;
  private readonly database: EngineDatabase;
  private readonly logger: Logger;
  private readonly clock: () => Date;
  private readonly channel: string;
  private readonly releaseClaimsAtStart: boolean;
  private readonly checkDatabase: (() => Promise<void>) | undefined;
  private readonly runtimes = new Map<string, MachineRuntime>();
  private readonly workers = new Map<string, TypeWorker>();
  private readonly enqueuers: PeriodicEnqueuer[] = [];
  private readonly heartbeat: LeaseHeartbeat;
  private unlisten: (() => Promise<void>) | undefined;
  private status: "idle" | "starting" | "running" | "stopped" = "idle";
  private starting: Promise<void> | undefined;

  constructor(options: StateEngineOptions) {
    this.config = resolveEngineConfig(options.config);
    this.database = options.database;
    this.logger = options.logger ?? silentLogger;
    this.clock = options.clock ?? (() => new Date());
    this.releaseClaimsAtStart = options.releaseClaimsAtStart === true;
    this.checkDatabase = options.checkDatabase;
    this.processorId = options.processorId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
    this.channel = channelName("state_queue", options.database.schema);
    const metrics = new EngineMetrics(
      options.metrics ?? noMetrics,
      () => sampleGauges(this.database.db, this.machines(), this.clock()),
      (error) => this.logger.warn({ error: describeError(error) }, "could not sample state metrics"),
    );
    this.heartbeat = new LeaseHeartbeat({
      database: this.database,
      config: this.config,
      logger: this.logger,
      clock: this.clock,
      runningClaims: () => [...this.workers.values()].flatMap((worker) => worker.runningClaims()),
    });
    for (const machine of options.machines) {
      if (this.runtimes.has(machine.objectType)) {
        throw new InvalidArgumentError(`two state machines handle object type "${machine.objectType}"`);
      }
      this.runtimes.set(machine.objectType, {
        machine,
        database: this.database,
        config: this.config,
        metrics,
        logger: this.logger,
        clock: this.clock,
        channel: this.channel,
        owner: this.processorId,
        writes: new FinalWriteBatcher(
          finalWriteStatements(this.database.db, machine.objectType, this.config.historyLimit),
        ),
        enqueue: (objectType, objectId) => this.enqueue(objectType, objectId),
      });
    }
  }

  /** Starts claiming and the periodic enqueue. Refuses a database with pending migrations. */
  async start(): Promise<void> {
    if (this.status !== "idle") throw new Error(`the state engine cannot start: it is ${this.status}`);
    this.status = "starting";
    this.starting = this.startUp();
    await this.starting;
  }

  private async startUp(): Promise<void> {
    try {
      await this.checkDatabase?.();
      if (this.releaseClaimsAtStart) {
        const released = await releaseAllClaims(this.database.db);
        const locks = await releaseAllWorkLocks(this.database.db);
        if (released + locks > 0) {
          this.logger.info({ released, locks }, "released claims and work locks a killed run left behind");
        }
      }
      for (const rt of this.runtimes.values()) this.workers.set(rt.machine.objectType, new TypeWorker(rt));
      this.unlisten = await this.database.listen(this.channel, (objectType) =>
        this.workers.get(objectType)?.poke(),
      );
    } catch (error) {
      this.status = "idle";
      this.workers.clear();
      throw error;
    }
    for (const rt of this.runtimes.values()) this.enqueuers.push(new PeriodicEnqueuer(rt));
    await Promise.all(this.enqueuers.map((enqueuer) => enqueuer.start()));
    for (const worker of this.workers.values()) worker.start();
    this.heartbeat.start();
    this.status = "running";
    this.logger.info(
      {
        processorId: this.processorId,
        objectTypes: [...this.runtimes.keys()],
        database: this.database.description,
        config: this.config,
      },
      "state engine started",
    );
  }

  /**
   * Stops claiming, waits up to `graceMs` (default `shutdownGraceMs`) for running handlers, abandons the
   * rest (nothing of theirs is written) and releases their claims so another replica runs them at once.
   * Does not close the database.
   */
  async stop(options: { graceMs?: number } = {}): Promise<void> {
    // A stop during start (SIGTERM while starting) waits for it, then stops what it started.
    await this.starting?.catch(() => undefined);
    if (this.status !== "running") return;
    this.status = "stopped";
    const graceMs = options.graceMs ?? this.config.shutdownGraceMs;
    await Promise.all(this.enqueuers.map((enqueuer) => enqueuer.stop()));
    const abandoned = (
      await Promise.all([...this.workers.values()].map((worker) => worker.stop(graceMs)))
    ).flat();
    // After the workers: handlers finishing within the grace keep their claims until they write.
    await this.heartbeat.stop();
    await this.unlisten?.().catch(() => undefined);
    if (abandoned.length > 0) {
      try {
        const released = await releaseClaims(this.database.db, abandoned, this.channel);
        this.logger.warn({ abandoned: abandoned.length, released }, "abandoned running handlers at shutdown");
      } catch (error) {
        this.logger.error(
          { error: describeError(error) },
          "could not release claims at shutdown; they expire with their lease",
        );
      }
    }
    this.logger.info({ processorId: this.processorId }, "state engine stopped");
  }

  /**
   * Stores a new object in `initialState` and enqueues it. With `trx`, it is part of the caller's
   * transaction (and its workers are woken when that commits).
   */
  async createObject(
    objectType: string,
    id: string,
    initialState: TaggedState,
    options: { trx?: Transaction<EngineTables> } = {},
  ): Promise<void> {
    this.runtime(objectType);
    if (typeof id !== "string" || id.length === 0)
      throw new InvalidArgumentError("object id must be a non-empty string");
    if (typeof initialState?.state !== "string") {
      throw new InvalidArgumentError(`initial state of ${objectType} ${id} needs a string "state" tag`);
    }
    const key = { objectType, objectId: id };
    const created = await insertObject(
      options.trx ?? this.database.db,
      key,
      initialState,
      this.clock(),
      this.channel,
    );
    if (!created) throw new ObjectAlreadyExistsError(objectType, id);
  }

  /**
   * Asks for the object to be handled as soon as possible (idempotent). If a handler is running for it, it
   * runs again right after. Throws ObjectNotFoundError for an unknown object.
   */
  async enqueue(objectType: string, id: string): Promise<void> {
    this.runtime(objectType);
    const queued = await enqueueObject(
      this.database.db,
      { objectType, objectId: id },
      this.clock(),
      this.channel,
    );
    if (!queued) throw new ObjectNotFoundError(objectType, id);
  }

  async getObjectState(
    objectType: string,
    id: string,
    options: { historyLimit?: number } = {},
  ): Promise<ObjectStateView | undefined> {
    const rt = this.runtime(objectType);
    const key = { objectType, objectId: id };
    const row = await readObject(this.database.db, key);
    if (!row) return undefined;
    const history = await readHistory(
      this.database.db,
      key,
      options.historyLimit ?? this.config.historyLimit,
    );
    const exempt = await this.slaExempt(rt.machine, [row.objectId]);
    return {
      ...this.view(rt.machine, row, exempt),
      history: history.map((h) => ({
        state: h.state,
        version: h.version,
        enteredAt: h.enteredAt.toISOString(),
        slaMs: exempt.has(row.objectId) ? null : stateSla(rt.machine, h.state),
        exitOutcome: h.exitOutcome,
      })),
    };
  }

  /** Objects of a type ordered by id, optionally in one state (by tag); page with `after` = last id seen. */
  async listObjects(
    objectType: string,
    options: { state?: string; limit?: number; after?: string } = {},
  ): Promise<ObjectStateView[]> {
    const rt = this.runtime(objectType);
    const limit = Math.min(Math.max(1, Math.floor(options.limit ?? DEFAULT_LIST_LIMIT)), MAX_LIST_LIMIT);
    const rows = await listObjects(this.database.db, objectType, { ...options, limit });
    const exempt = await this.slaExempt(
      rt.machine,
      rows.map((row) => row.objectId),
    );
    return rows.map((row) => this.view(rt.machine, row, exempt));
  }

  private async slaExempt(machine: StateMachine, ids: readonly string[]): Promise<ReadonlySet<string>> {
    return ids.length > 0 && machine.slaExempt ? machine.slaExempt(this.database.db, ids) : new Set();
  }

  private view(machine: StateMachine, row: ObjectRow, exempt: ReadonlySet<string>): ObjectStateView {
    const timeInStateMs = Math.max(0, this.clock().getTime() - row.enteredAt.getTime());
    const slaMs = exempt.has(row.objectId) ? null : stateSla(machine, row.state);
    return {
      objectType: row.objectType,
      objectId: row.objectId,
      state: row.state,
      stateLabel: stateLabel(machine, row.state),
      version: row.version,
      enteredAt: row.enteredAt.toISOString(),
      timeInStateMs,
      sla: { slaMs, aboveSla: slaMs !== null && timeInStateMs > slaMs },
      outcome: row.outcome,
      history: [],
    };
  }

  private machines(): Map<string, StateMachine> {
    return new Map([...this.runtimes].map(([objectType, rt]) => [objectType, rt.machine]));
  }

  private runtime(objectType: string): MachineRuntime {
    const rt = this.runtimes.get(objectType);
    if (!rt) throw new UnknownObjectTypeError(objectType, [...this.runtimes.keys()]);
    return rt;
  }
}
