import { prometheusMetrics } from "@racksmith/server";
import { latch, openTestDatabase, type TestDatabase, waitFor } from "@racksmith/server/testing";
import { type KyselyPlugin, sql } from "kysely";
import { Registry } from "prom-client";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createWidgetsTable,
  insertWidget,
  readWidget,
  type WidgetHook,
  type WidgetState,
  widgetMachine,
} from "../../test/engine/widget.js";
import { RacksmithError } from "../errors/index.js";
import type { Logger } from "../logging/index.js";
import type { EngineConfig } from "./config.js";
import { StateEngine } from "./engine.js";
import { HISTORY_TRIM_EVERY } from "./finalWrite.js";
import { claimDue, enqueueAllObjects, enqueueObject } from "./queue.js";
import type { Claim } from "./records.js";
import type { ObjectStateView } from "./types.js";
import { MAX_CHAINED_RUNS } from "./typeWorker.js";
import { WakeSignal } from "./wakeSignal.js";
import { tryAcquireWorkLock } from "./workLock.js";

// Every work-lock attempt, passed through unchanged, so the periodic test can see each replica try.
vi.mock("./workLock.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("./workLock.js")>();
  return { ...original, tryAcquireWorkLock: vi.fn(original.tryAcquireWorkLock) };
});

// Every claim taken from the queue, passed through unchanged, so the chain test can count them.
vi.mock("./queue.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("./queue.js")>();
  return { ...original, claimDue: vi.fn(original.claimDue) };
});

/** Each engine's Prometheus registry: the engine records through the core's metrics contract. */
const registries = new WeakMap<StateEngine, Registry>();
function registryOf(engine: StateEngine): Registry {
  const registry = registries.get(engine);
  if (!registry) throw new Error("not an engine of this file");
  return registry;
}

/** The text of a raw statement, its nested fragments included (parameters left out). */
function rawText(node: unknown): string {
  if (typeof node !== "object" || node === null || (node as { kind?: unknown }).kind !== "RawNode") return "";
  const raw = node as { sqlFragments: readonly string[]; parameters: readonly unknown[] };
  return raw.sqlFragments.map((fragment, i) => fragment + rawText(raw.parameters[i])).join("");
}

/** Longer than any test lives (vitest stops one after 30 s), and below setTimeout's limit even with jitter. */
const NEVER_MS = 1_000_000_000;

// Periodic runs, polls, handler timeouts and leases never come due while a test runs, so whatever happens
// was driven by NOTIFY, a transition's immediate re-run or a finished run freeing its slot — never by a
// timer running out on a slow machine.
// For the same reason every wait below has no deadline of its own: vitest's per-test timeout is the only bound.
const QUIET: Partial<EngineConfig> = {
  iterationIntervalMs: NEVER_MS,
  pollIntervalMs: NEVER_MS,
  handlerTimeoutMs: NEVER_MS,
};

/**
 * Watches worker loops parked in `WakeSignal.wait`: a parked worker moves only for a fire (NOTIFY, a run of
 * its own ending, stop) or its poll timeout, which QUIET puts beyond the test.
 */
function watchParkedWorkers(): { parked(): number; parks(): number; restore(): void } {
  const wait = WakeSignal.prototype.wait;
  let parked = 0;
  let parks = 0;
  const spy = vi.spyOn(WakeSignal.prototype, "wait").mockImplementation(function (
    this: WakeSignal,
    timeoutMs: number,
  ) {
    const woken = wait.call(this, timeoutMs);
    parked++;
    parks++;
    void woken.then(() => {
      parked--;
    });
    return woken;
  });
  return { parked: () => parked, parks: () => parks, restore: () => spy.mockRestore() };
}

let testDb: TestDatabase;
const engines: StateEngine[] = [];

beforeAll(async () => {
  testDb = await openTestDatabase("engine");
  await createWidgetsTable(testDb.database);
});
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.stop({ graceMs: 0 })));
});
afterAll(async () => {
  await testDb?.close();
});

async function startEngine(
  objectType: string,
  options: {
    hook?: WidgetHook;
    config?: Partial<EngineConfig>;
    sla?: Partial<Record<WidgetState["state"], number>>;
    clock?: () => Date;
    registry?: Registry;
    releaseClaimsAtStart?: boolean;
    loadsInOneStatement?: boolean;
    onLoad?: (inTransaction: boolean) => void;
    /** A plugin on the engine's own database handle (faults injected into its statements). */
    plugin?: KyselyPlugin;
    logger?: Logger;
  } = {},
): Promise<StateEngine> {
  const registry = options.registry ?? new Registry();
  const { hook, sla, loadsInOneStatement, onLoad } = options;
  const engine = new StateEngine({
    database: options.plugin
      ? { ...testDb.database, db: testDb.database.db.withPlugin(options.plugin) }
      : testDb.database,
    machines: [widgetMachine({ objectType, hook, sla, loadsInOneStatement, onLoad })],
    config: { ...QUIET, ...options.config },
    logger:
      options.logger ??
      (process.env.DEBUG_ENGINE
        ? {
            debug: (f, m) => console.log("D", m, JSON.stringify(f)),
            info: (f, m) => console.log("I", m, JSON.stringify(f)),
            warn: (f, m) => console.log("W", m, JSON.stringify(f)),
            error: (f, m) => console.log("E", m, JSON.stringify(f)),
          }
        : undefined),
    clock: options.clock,
    metrics: prometheusMetrics(registry),
    releaseClaimsAtStart: options.releaseClaimsAtStart,
  });
  engines.push(engine);
  registries.set(engine, registry);
  await engine.start();
  return engine;
}

async function addWidget(
  engine: StateEngine,
  objectType: string,
  id: string,
  fields: Parameters<typeof insertWidget>[2] = {},
): Promise<void> {
  await insertWidget(testDb.database, id, fields);
  await engine.createObject(objectType, id, { state: "new" });
}

async function stateOf(engine: StateEngine, objectType: string, id: string): Promise<ObjectStateView> {
  const view = await engine.getObjectState(objectType, id);
  if (!view) throw new Error(`${objectType} ${id} does not exist`);
  return view;
}

function untilState(
  engine: StateEngine,
  objectType: string,
  id: string,
  state: string,
): Promise<ObjectStateView> {
  return waitFor(
    async () => {
      const view = await stateOf(engine, objectType, id);
      return view.state.state === state ? view : undefined;
    },
    { what: `${id} to reach ${state}`, timeoutMs: Number.POSITIVE_INFINITY },
  );
}

function untilOutcome(
  engine: StateEngine,
  objectType: string,
  id: string,
  kind: string,
): Promise<ObjectStateView> {
  return waitFor(
    async () => {
      const view = await stateOf(engine, objectType, id);
      return view.outcome?.kind === kind ? view : undefined;
    },
    { what: `${id} to record a ${kind} outcome`, timeoutMs: Number.POSITIVE_INFINITY },
  );
}

async function queueRow(objectType: string, id: string) {
  return testDb.database.db
    .selectFrom("state_queue")
    .selectAll()
    .where("object_type", "=", objectType)
    .where("object_id", "=", id)
    .executeTakeFirst();
}

describe("StateEngine", () => {
  it("chains transitions at once, without waiting for a poll or the periodic tick", async () => {
    const runs: string[] = [];
    const engine = await startEngine("w_chain", { hook: ({ state }) => void runs.push(state.state) });
    await addWidget(engine, "w_chain", "chain-1", { polish_rounds: 2 });

    // No poll or periodic tick comes due while the test runs (QUIET): reaching `done` at all is the proof.
    const view = await untilState(engine, "w_chain", "chain-1", "done");
    expect(view.version).toBe(5);
    expect(view.history.map((h) => [h.version, h.state])).toEqual([
      [5, { state: "done" }],
      [4, { state: "polishing", round: 2 }],
      [3, { state: "polishing", round: 1 }],
      [2, { state: "assembling" }],
      [1, { state: "new" }],
    ]);
    await untilOutcome(engine, "w_chain", "chain-1", "doNothing");
    expect(runs).toEqual(["new", "assembling", "polishing", "polishing", "done"]);
    expect((await readWidget(testDb.database, "chain-1"))?.assembled).toBe(true);
  });

  it.each([
    ["in a read-only snapshot transaction", false],
    ["without a transaction when it reads in one statement", true],
  ])("loads the object %s", async (_, loadsInOneStatement) => {
    const type = loadsInOneStatement ? "w_load_one" : "w_load_trx";
    const loads: boolean[] = [];
    const engine = await startEngine(type, { loadsInOneStatement, onLoad: (trx) => void loads.push(trx) });
    await addWidget(engine, type, `${type}-1`);
    await untilState(engine, type, `${type}-1`, "done");
    expect(loads.length).toBeGreaterThan(0);
    expect(new Set(loads)).toEqual(new Set([!loadsInOneStatement]));
  });

  it("runs the states transitions lead to on the claim they kept, up to MAX_CHAINED_RUNS runs per claim", async () => {
    const claimed = vi.mocked(claimDue);
    claimed.mockClear();
    const runs: string[] = [];
    const engine = await startEngine("w_kept", { hook: ({ state }) => void runs.push(state.state) });
    // new, assembling, 20 polishing rounds, done: 23 runs, one more claim than MAX_CHAINED_RUNS allows.
    await addWidget(engine, "w_kept", "kept-1", { polish_rounds: MAX_CHAINED_RUNS + 4 });
    await untilOutcome(engine, "w_kept", "kept-1", "doNothing");
    expect(runs).toHaveLength(MAX_CHAINED_RUNS + 7);
    const claims = (await Promise.all(claimed.mock.results.map((r) => r.value as Promise<Claim[]>)))
      .flat()
      .filter((claim) => claim.objectId === "kept-1");
    expect(claims).toHaveLength(2);
    expect((await stateOf(engine, "w_kept", "kept-1")).version).toBe(MAX_CHAINED_RUNS + 7);
  });

  it("keeps at most `concurrency` handlers running, and finishes every object while saturated", async () => {
    let running = 0;
    let peak = 0;
    const gate = latch();
    const engine = await startEngine("w_busy", {
      config: { concurrency: 2 },
      hook: async () => {
        running++;
        peak = Math.max(peak, running);
        // Every handler is held here until the test has seen both slots taken.
        await gate.promise;
        running--;
      },
    });
    const ids = Array.from({ length: 8 }, (_, i) => `busy-${i}`);
    for (const id of ids.slice(0, 2)) await addWidget(engine, "w_busy", id, { polish_rounds: 1 });
    await waitFor(() => running === 2, {
      what: "both slots to be taken",
      timeoutMs: Number.POSITIVE_INFINITY,
    });
    // Created while the worker is saturated: their NOTIFYs arrive when it has no free slot.
    for (const id of ids.slice(2)) await addWidget(engine, "w_busy", id, { polish_rounds: 1 });
    expect(running).toBe(2);
    gate.open();
    for (const id of ids) await untilState(engine, "w_busy", id, "done");
    expect(peak).toBe(2);
  });

  it("records a handler error as the outcome with its code and keeps the state", async () => {
    const engine = await startEngine("w_error", {
      hook: ({ id, state }) => {
        if (state.state !== "assembling") return;
        if (id === "jammed")
          throw new RacksmithError("invalid_argument", "INVALID_ARGUMENT", "the press is jammed");
        throw new Error("plain failure");
      },
    });
    await addWidget(engine, "w_error", "jammed");
    await addWidget(engine, "w_error", "plain");

    const jammed = await untilOutcome(engine, "w_error", "jammed", "error");
    expect(jammed.state).toEqual({ state: "assembling" });
    expect(jammed.version).toBe(2);
    expect(jammed.outcome?.error).toEqual({ code: "invalid_argument", message: "the press is jammed" });
    const plain = await untilOutcome(engine, "w_error", "plain", "error");
    expect(plain.state).toEqual({ state: "assembling" });
    expect(plain.outcome?.error).toEqual({ code: "internal", message: "plain failure" });
    // An error is retried on the next period, not in a hot loop: the queue row is gone.
    expect(await queueRow("w_error", "jammed")).toBeUndefined();
    expect((await readWidget(testDb.database, "jammed"))?.assembled).toBe(false);

    const metrics = await registryOf(engine).getSingleMetricAsString("racksmith_state_handler_errors_total");
    expect(metrics).toContain('object_type="w_error",state="assembling",code="invalid_argument"} 1');
  });

  it("discards a stale write (version moved) with its deferred writes, then re-runs on the fresh state", async () => {
    const hold = latch();
    const reached = latch();
    let newRuns = 0;
    const engine = await startEngine("w_stale", {
      hook: async ({ state }) => {
        if (state.state !== "new" || newRuns++ > 0) return;
        reached.open();
        await hold.promise;
      },
    });
    await addWidget(engine, "w_stale", "stale-1", { parts_ready: false });
    await reached.promise;
    // Someone else moves the version while the handler runs.
    await sql`UPDATE state_objects SET version = version + 1 WHERE object_type = 'w_stale'`.execute(
      testDb.database.db,
    );
    hold.open();

    const view = await untilState(engine, "w_stale", "stale-1", "assembling");
    expect(newRuns).toBe(2);
    expect(view.version).toBe(3);
    // Only the second run's deferred write landed.
    expect((await readWidget(testDb.database, "stale-1"))?.writes).toBe(1);
    const stale = await registryOf(engine).getSingleMetricAsString("racksmith_state_stale_writes_total");
    expect(stale).toContain('object_type="w_stale",reason="version"} 1');
  });

  it("applies deferred writes only together with the outcome", async () => {
    const engine = await startEngine("w_defer", {
      hook: ({ id, state, context }) => {
        if (state.state !== "new") return;
        if (id === "throws") {
          context.defer(async () => {
            throw new Error("never applied");
          });
          throw new RacksmithError("invalid_argument", "INVALID_ARGUMENT", "refused");
        }
        if (id === "bad-write") {
          context.defer(async (trx) => {
            await sql`UPDATE widgets SET writes = writes + 100 WHERE id = ${id}`.execute(trx);
          });
          context.defer(async () => {
            throw new RacksmithError("not_supported", "UNIMPLEMENTED", "second write failed");
          });
        }
      },
    });
    await addWidget(engine, "w_defer", "throws");
    await addWidget(engine, "w_defer", "bad-write");

    const threw = await untilOutcome(engine, "w_defer", "throws", "error");
    expect(threw.state).toEqual({ state: "new" });
    expect((await readWidget(testDb.database, "throws"))?.writes).toBe(0);

    const badWrite = await untilOutcome(engine, "w_defer", "bad-write", "error");
    expect(badWrite.state).toEqual({ state: "new" });
    expect(badWrite.version).toBe(1);
    expect(badWrite.outcome?.error?.code).toBe("not_supported");
    expect((await readWidget(testDb.database, "bad-write"))?.writes).toBe(0);
  });

  it("keeps history bounded to historyLimit rows per object", async () => {
    const engine = await startEngine("w_history", { config: { historyLimit: 4 } });
    await addWidget(engine, "w_history", "long", { polish_rounds: 8 });
    const view = await untilState(engine, "w_history", "long", "done");
    expect(view.version).toBe(11);
    expect(view.history.map((h) => h.version)).toEqual([11, 10, 9, 8]);
    const { rows } = await sql<{ n: number }>`
      SELECT count(*) AS n FROM state_history WHERE object_type = 'w_history'`.execute(testDb.database.db);
    // Trimmed at version 8 (every HISTORY_TRIM_EVERY-th) to the 4 newest then: 5 … 11.
    expect(HISTORY_TRIM_EVERY).toBe(8);
    expect(rows[0]?.n).toBe(7);
  });

  it("flags time in state above the SLA without ever forcing a transition", async () => {
    let now = new Date("2030-01-01T00:00:00Z");
    const registry = new Registry();
    const engine = await startEngine("w_sla", { sla: { assembling: 60_000 }, clock: () => now, registry });
    await addWidget(engine, "w_sla", "slow", { parts_ready: false });
    await untilOutcome(engine, "w_sla", "slow", "wait");

    const within = await stateOf(engine, "w_sla", "slow");
    expect(within.sla).toEqual({ slaMs: 60_000, aboveSla: false });
    now = new Date(now.getTime() + 61_000);
    const above = await stateOf(engine, "w_sla", "slow");
    expect(above.sla).toEqual({ slaMs: 60_000, aboveSla: true });
    expect(above.timeInStateMs).toBe(61_000);
    // Each history entry carries the SLA of its own state (none for `new`).
    expect(above.history.map((h) => [h.state.state, h.slaMs])).toEqual([
      ["assembling", 60_000],
      ["new", null],
    ]);
    expect(await registry.getSingleMetricAsString("racksmith_state_objects_above_sla")).toContain(
      'object_type="w_sla",state="assembling"} 1',
    );

    // Running it again above SLA keeps waiting in the same state.
    await engine.enqueue("w_sla", "slow");
    await waitFor(async () => (await stateOf(engine, "w_sla", "slow")).outcome?.at === now.toISOString(), {
      timeoutMs: Number.POSITIVE_INFINITY,
    });
    expect((await stateOf(engine, "w_sla", "slow")).state).toEqual({ state: "assembling" });
    expect((await stateOf(engine, "w_sla", "slow")).version).toBe(2);
  });

  it("closes each left state's history entry with its last outcome: the wait it ended, or a transition at once", async () => {
    const engine = await startEngine("w_exit", {});
    await addWidget(engine, "w_exit", "e1", { parts_ready: false, polish_rounds: 0 });
    await untilOutcome(engine, "w_exit", "e1", "wait");
    expect((await stateOf(engine, "w_exit", "e1")).history.map((h) => h.exitOutcome?.kind ?? null)).toEqual([
      null,
      "transition",
    ]);

    await sql`UPDATE widgets SET parts_ready = true WHERE id = 'e1'`.execute(testDb.database.db);
    await engine.enqueue("w_exit", "e1");
    const view = await untilState(engine, "w_exit", "e1", "done");
    const byState = new Map(view.history.map((h) => [h.state.state, h.exitOutcome]));
    expect(byState.get("assembling")).toMatchObject({ kind: "wait", reason: "parts not ready" });
    expect(byState.get("new")).toMatchObject({ kind: "transition" });
    expect(byState.get("done")).toBeNull();
  });

  it("persists nothing for a handler that exceeds its timeout, and keeps the claim until it stops", async () => {
    let slow = true;
    const sawAbort = latch();
    const letGo = latch();
    let settled = false;
    const engine = await startEngine("w_timeout", {
      // The handler below only ends once aborted, so the 100 ms timeout is the one way it can end.
      config: { handlerTimeoutMs: 100, leaseMs: NEVER_MS },
      hook: async ({ state, context }) => {
        if (state.state !== "new" || !slow) return;
        context.defer(async (trx) => {
          await sql`UPDATE widgets SET writes = writes + 100 WHERE id = 'late'`.execute(trx);
        });
        await new Promise<void>((resolve) => context.signal.addEventListener("abort", () => resolve()));
        sawAbort.open();
        // Ignores the abort until the test lets it go, as careless I/O would.
        await letGo.promise;
        settled = true;
      },
    });
    await addWidget(engine, "w_timeout", "late");
    await sawAbort.promise;
    // Timed out but still running: the claim stays with this engine until the handler stops.
    await waitFor(
      async () =>
        (await registryOf(engine).getSingleMetricAsString("racksmith_state_handler_errors_total")).includes(
          'code="handler_timeout"} 1',
        ),
      { what: "the timeout to be counted", timeoutMs: Number.POSITIVE_INFINITY },
    );
    expect(await queueRow("w_timeout", "late")).toMatchObject({ owner: engine.processorId });
    expect(settled).toBe(false);
    letGo.open();
    await waitFor(async () => settled && (await queueRow("w_timeout", "late")) === undefined, {
      what: "the claim to end after the handler stopped",
      timeoutMs: Number.POSITIVE_INFINITY,
    });

    const view = await stateOf(engine, "w_timeout", "late");
    expect(view.state).toEqual({ state: "new" });
    expect(view.version).toBe(1);
    expect(view.outcome).toBeNull();
    expect((await readWidget(testDb.database, "late"))?.writes).toBe(0);
    expect(
      await registryOf(engine).getSingleMetricAsString("racksmith_state_handler_errors_total"),
    ).toContain('code="handler_timeout"} 1');

    slow = false;
    await engine.enqueue("w_timeout", "late");
    await untilState(engine, "w_timeout", "late", "done");
  });

  it("renews a running handler's lease, so another replica never takes it over while it runs", async () => {
    // One clock the test moves for both replicas: lease expiry is decided by it, not by how busy the machine is.
    const leaseMs = 10_000;
    let now = Date.parse("2026-01-01T00:00:00Z");
    const clock = () => new Date(now);
    const hold = latch();
    const ran: string[] = [];
    const config: Partial<EngineConfig> = { leaseMs, heartbeatMs: 20, pollIntervalMs: 20 };
    const hookOf =
      (name: string): WidgetHook =>
      async ({ state }) => {
        if (state.state !== "new") return;
        ran.push(name);
        if (name === "first") await hold.promise;
      };
    const first = await startEngine("w_lease", { hook: hookOf("first"), config, clock });
    await addWidget(first, "w_lease", "leased");
    await waitFor(() => ran.length === 1, {
      what: "the first replica's handler",
      timeoutMs: Number.POSITIVE_INFINITY,
    });
    const second = await startEngine("w_lease", { hook: hookOf("second"), config, clock });
    const leaseUntil = async () => (await queueRow("w_lease", "leased"))?.lease_expires_at?.getTime();

    for (let step = 1; step <= 3; step++) {
      // Most of a lease passes; the heartbeat extends it from the new "now".
      now += leaseMs * 0.9;
      const renewedTo = now + leaseMs;
      await waitFor(async () => (await leaseUntil()) === renewedTo, {
        what: `the lease renewed to ${new Date(renewedTo).toISOString()}`,
        timeoutMs: Number.POSITIVE_INFINITY,
      });
      // The second replica looks for due work (its poll) with the claim live: it must leave it alone.
      await second.enqueue("w_lease", "leased");
    }
    // Nearly three leases after the claim, the first replica still holds it and nobody else ran the object.
    expect(await queueRow("w_lease", "leased")).toMatchObject({ owner: first.processorId });
    expect(ran).toEqual(["first"]);
    hold.open();
    await untilState(first, "w_lease", "leased", "done");
    expect(ran).toEqual(["first"]);
  });

  it("does not lose an enqueue that arrives while the object is being handled", async () => {
    const hold = latch();
    const reached = latch();
    let assemblingRuns = 0;
    const engine = await startEngine("w_rerun", {
      hook: async ({ state }) => {
        if (state.state !== "assembling" || assemblingRuns++ > 0) return;
        reached.open();
        await hold.promise;
      },
    });
    await addWidget(engine, "w_rerun", "rerun-1", { parts_ready: false });
    await reached.promise;
    // The running handler loaded "parts not ready"; the parts arrive and the object is enqueued meanwhile.
    await sql`UPDATE widgets SET parts_ready = true WHERE id = 'rerun-1'`.execute(testDb.database.db);
    await engine.enqueue("w_rerun", "rerun-1");
    expect(await queueRow("w_rerun", "rerun-1")).toMatchObject({ owner: engine.processorId });
    hold.open();

    await untilState(engine, "w_rerun", "rerun-1", "done");
    expect(assemblingRuns).toBe(2);
  });

  it.each([
    ["the engine's waitRecheckMs (batched final write)", null, false, 60_000],
    ["the handler's own recheckAfterMs (final write with deferred writes)", 5_000, true, 5_000],
  ])(
    "re-runs a waiting object after %s with nothing enqueueing it, and not before",
    async (_, recheckMs, defers, afterMs) => {
      const type = defers ? "w_recheck_own" : "w_recheck";
      const id = `${type}-1`;
      let now = Date.parse("2031-02-01T00:00:00Z");
      const engine = await startEngine(type, {
        clock: () => new Date(now),
        // The worker polls for due rows every 20 ms of real time; only the test's clock makes the row due.
        config: { waitRecheckMs: 60_000, pollIntervalMs: 20 },
        hook: ({ state, context }) => {
          if (defers && state.state === "assembling") context.defer(async () => undefined);
        },
      });
      await addWidget(engine, type, id, { parts_ready: false, recheck_ms: recheckMs });
      await untilOutcome(engine, type, id, "wait");
      // Parked in the same statement as the outcome: unclaimed, due when the wait asked.
      expect(await queueRow(type, id)).toMatchObject({
        owner: null,
        due_at: new Date(now + afterMs),
      });
      await sql`UPDATE widgets SET parts_ready = true WHERE id = ${id}`.execute(testDb.database.db);

      const pollAt = (at: number) => {
        const { calls, settledResults } = vi.mocked(claimDue).mock;
        return calls.some(
          ([, request], i) =>
            request.objectType === type &&
            request.now.getTime() === at &&
            settledResults[i]?.type === "fulfilled",
        );
      };
      now += afterMs - 1;
      await waitFor(() => pollAt(now), {
        what: "a poll just before the recheck",
        timeoutMs: Number.POSITIVE_INFINITY,
      });
      expect((await stateOf(engine, type, id)).state).toEqual({ state: "assembling" });
      now += 1;
      await untilState(engine, type, id, "done");
    },
  );

  it("runs a parked waiting object at once when it is enqueued", async () => {
    const engine = await startEngine("w_recheck_enqueue", { config: { waitRecheckMs: NEVER_MS } });
    await addWidget(engine, "w_recheck_enqueue", "parked-1", { parts_ready: false });
    await untilOutcome(engine, "w_recheck_enqueue", "parked-1", "wait");
    expect(await queueRow("w_recheck_enqueue", "parked-1")).toMatchObject({ owner: null });
    await sql`UPDATE widgets SET parts_ready = true WHERE id = 'parked-1'`.execute(testDb.database.db);
    await engine.enqueue("w_recheck_enqueue", "parked-1");
    await untilState(engine, "w_recheck_enqueue", "parked-1", "done");
    // The transition's chained run of `done` still holds the claim for a moment: its end removes the row.
    await waitFor(async () => (await queueRow("w_recheck_enqueue", "parked-1")) === undefined, {
      what: "the queue row gone after the run that finished the object",
      timeoutMs: Number.POSITIVE_INFINITY,
    });
    expect(await queueRow("w_recheck_enqueue", "parked-1")).toBeUndefined();
  });

  it("counts an enqueue of a parked row from when it came, not from the recheck time", async () => {
    const engine = await startEngine("w_parked_enqueue", { config: { waitRecheckMs: NEVER_MS } });
    await addWidget(engine, "w_parked_enqueue", "parked-2", { parts_ready: false });
    await untilOutcome(engine, "w_parked_enqueue", "parked-2", "wait");
    // Nothing runs it from here on: the row's times are what the enqueue wrote.
    await engine.stop({ graceMs: 0 });
    const now = new Date();
    await enqueueObject(
      testDb.database.db,
      { objectType: "w_parked_enqueue", objectId: "parked-2" },
      now,
      "quiet",
    );
    expect(await queueRow("w_parked_enqueue", "parked-2")).toMatchObject({ due_at: now, enqueued_at: now });
  });

  it("wakes an idle worker through NOTIFY, not a poll (poll interval beyond the test)", async () => {
    const workers = watchParkedWorkers();
    try {
      // How many times the worker had parked when each handler started (it parks right after a launch).
      const parksAtStart = new Map<string, number>();
      const engine = await startEngine("w_notify", {
        hook: ({ id, state }) => {
          if (state.state === "done" && !parksAtStart.has(id)) parksAtStart.set(id, workers.parks());
        },
      });
      await insertWidget(testDb.database, "quick");
      // Idle: its first (empty) claim done, the worker is parked, and only a fire can move it on (QUIET).
      await waitFor(() => workers.parked() === 1, {
        what: "the worker to go idle",
        timeoutMs: Number.POSITIVE_INFINITY,
      });
      await engine.createObject("w_notify", "quick", { state: "done" });
      await waitFor(() => parksAtStart.has("quick"), {
        what: "the handler to start",
        timeoutMs: Number.POSITIVE_INFINITY,
      });

      // Idle again: the run ended, the worker claimed once more (nothing) and parked.
      const parksForQuick = parksAtStart.get("quick") ?? Number.POSITIVE_INFINITY;
      await waitFor(() => workers.parked() === 1 && workers.parks() > parksForQuick, {
        what: "the worker to go idle after its run",
        timeoutMs: Number.POSITIVE_INFINITY,
      });
      // Inside a caller's transaction: nothing runs before the commit, and the commit wakes the worker.
      await insertWidget(testDb.database, "in-trx");
      const parksBefore = workers.parks();
      await testDb.database.db.transaction().execute(async (trx) => {
        await engine.createObject("w_notify", "in-trx", { state: "done" }, { trx });
        if (testDb.database.kind === "postgres") {
          // Invisible to the workers' connections until the commit (PGlite's one connection is ours now).
          expect(await engine.getObjectState("w_notify", "in-trx")).toBeUndefined();
        }
        expect(parksAtStart.has("in-trx")).toBe(false);
        expect(workers.parks()).toBe(parksBefore);
      });
      await waitFor(() => parksAtStart.has("in-trx"), {
        what: "the handler to start after commit",
        timeoutMs: Number.POSITIVE_INFINITY,
      });

      const latency = await registryOf(engine).getSingleMetricAsString(
        "racksmith_state_enqueue_to_start_seconds",
      );
      expect(latency).toContain('racksmith_state_enqueue_to_start_seconds_count{object_type="w_notify"} 2');
    } finally {
      workers.restore();
    }
  });

  it("takes a final write whose answer was lost after its commit as written, not as a failure or a lost claim", async () => {
    // The final write's statement commits, then its answer is lost (as when the connection dies right after).
    const faulted = new Set<unknown>();
    let faults = 0;
    const lostAnswer: KyselyPlugin = {
      transformQuery: ({ node, queryId }) => {
        if (faults === 0 && rawText(node).includes("written AS (DELETE FROM state_objects"))
          faulted.add(queryId);
        return node;
      },
      transformResult: async ({ result, queryId }) => {
        if (!faulted.delete(queryId)) return result;
        faults++;
        throw new Error("Connection terminated unexpectedly");
      },
    };
    const warnings: string[] = [];
    const note = (_fields: object, message: string) => warnings.push(message);
    const engine = await startEngine("w_lost_answer", {
      plugin: lostAnswer,
      logger: { debug: () => undefined, info: () => undefined, warn: note, error: note },
    });
    await addWidget(engine, "w_lost_answer", "scrapped-unanswered", { scrap: true });
    await waitFor(
      async () => (await engine.getObjectState("w_lost_answer", "scrapped-unanswered")) === undefined,
      {
        what: "the object to be deleted",
        timeoutMs: Number.POSITIVE_INFINITY,
      },
    );
    await engine.stop({ graceMs: 0 });
    expect(faults).toBe(1);
    expect(warnings).toEqual([]);
  });

  it("removes the object, its history and its queue row on a deleted outcome", async () => {
    const engine = await startEngine("w_scrap");
    await addWidget(engine, "w_scrap", "scrapped", { scrap: true });
    await waitFor(async () => (await engine.getObjectState("w_scrap", "scrapped")) === undefined, {
      what: "the object to be deleted",
      timeoutMs: Number.POSITIVE_INFINITY,
    });
    const { rows } = await sql<{ n: number }>`
      SELECT (SELECT count(*) FROM state_history WHERE object_type = 'w_scrap')
        + (SELECT count(*) FROM state_queue WHERE object_type = 'w_scrap') AS n`.execute(testDb.database.db);
    expect(rows[0]?.n).toBe(0);
  });

  it("re-runs every object periodically, once per interval across replicas (work lock)", async () => {
    // Both replicas read one clock the test moves: the work lock, held for one interval of that clock, decides
    // who enqueues. Their (real) timers tick every 50 ms or so, which only makes them try often.
    const intervalMs = 50;
    const startedAt = Date.parse("2031-01-01T00:00:00Z");
    let now = startedAt;
    const clock = () => new Date(now);
    const runs: number[] = [];
    const hook: WidgetHook = ({ state }) => {
      if (state.state === "done") runs.push(now);
    };
    // Each batch due at once (not spread over the interval), so each run comes at the tick that made it due.
    const config = { iterationIntervalMs: intervalMs, iterationSpreadMs: 0 };
    const first = await startEngine("w_periodic", { hook, config, clock });
    const second = await startEngine("w_periodic", { hook, config, clock });
    const replicas = [first.processorId, second.processorId].sort();
    /** Finished attempts at the periodic work lock while the clock reads `at`. */
    const attemptsAt = (at: number) => {
      const { calls, settledResults } = vi.mocked(tryAcquireWorkLock).mock;
      return calls.flatMap(([, lock], i) => {
        const settled = settledResults[i];
        if (lock.key !== "state_periodic_enqueue:w_periodic" || lock.now.getTime() !== at) return [];
        return settled?.type === "fulfilled" ? [{ owner: lock.owner, acquired: settled.value }] : [];
      });
    };
    const ranAt = (at: number) =>
      waitFor(async () => runs.includes(at) && (await queueRow("w_periodic", "ticking")) === undefined, {
        what: `the run at ${new Date(at).toISOString()} to end`,
        timeoutMs: Number.POSITIVE_INFINITY,
      });

    await insertWidget(testDb.database, "ticking");
    await first.createObject("w_periodic", "ticking", { state: "done" });
    await ranAt(now);
    for (let interval = 1; interval <= 3; interval++) {
      now += intervalMs; // the lock taken one interval ago expires now
      await waitFor(() => new Set(attemptsAt(now).map((a) => a.owner)).size === 2, {
        what: `both replicas to try the lock in interval ${interval}`,
        timeoutMs: Number.POSITIVE_INFINITY,
      });
      await ranAt(now);
      // Exactly one of the replicas' attempts in this interval got the lock (both would without it).
      expect(attemptsAt(now).filter((a) => a.acquired)).toHaveLength(1);
    }
    expect([...new Set(attemptsAt(startedAt).map((a) => a.owner))].sort()).toEqual(replicas);
    expect(runs).toEqual([0, 1, 2, 3].map((i) => startedAt + i * intervalMs));
  });

  it("spreads a periodic batch over iterationSpreadMs, each object due once within it", async () => {
    const engine = await startEngine("w_spread");
    const ids = Array.from({ length: 40 }, (_, i) => `spread-${i}`);
    for (const id of ids) await addWidget(engine, "w_spread", id, { parts_ready: false });
    await waitFor(
      async () => {
        const views = await Promise.all(ids.map((id) => stateOf(engine, "w_spread", id)));
        return views.every((view) => view.outcome?.kind === "wait");
      },
      { what: "every widget to wait for its parts", timeoutMs: Number.POSITIVE_INFINITY },
    );
    const now = new Date("2031-03-01T00:00:00Z");
    expect(await enqueueAllObjects(testDb.database.db, "w_spread", now, 60_000)).toBe(ids.length);
    const due = await testDb.database.db
      .selectFrom("state_queue")
      .select(["due_at", "enqueued_at"])
      .where("object_type", "=", "w_spread")
      .execute();
    const times = due.map((row) => new Date(row.due_at).getTime() - now.getTime());
    expect(times).toHaveLength(ids.length);
    for (const ms of times) expect(ms >= 0 && ms < 60_000).toBe(true);
    // 40 draws over a minute: all in one second would be a batch, not a spread.
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(1_000);
    expect(due.every((row) => new Date(row.enqueued_at).getTime() === new Date(row.due_at).getTime())).toBe(
      true,
    );
    // Already queued: a second batch adds nothing.
    expect(await enqueueAllObjects(testDb.database.db, "w_spread", now, 60_000)).toBe(0);
  });

  it("on stop, abandons handlers past the grace period and releases their claims to other replicas", async () => {
    let aborted = false;
    let returned = false;
    const letGo = latch();
    const engine = await startEngine("w_stop", {
      hook: async ({ state, context }) => {
        if (state.state !== "new") return;
        await new Promise<void>((resolve) => context.signal.addEventListener("abort", () => resolve()));
        aborted = true;
        // Still not done after the abort: only the test lets it return.
        await letGo.promise;
        returned = true;
      },
    });
    await addWidget(engine, "w_stop", "stuck");
    await waitFor(async () => (await queueRow("w_stop", "stuck"))?.owner === engine.processorId, {
      timeoutMs: Number.POSITIVE_INFINITY,
    });
    // The handler never ends by itself, so stop() can only return by abandoning it after the grace period.
    await engine.stop({ graceMs: 100 });
    expect(aborted).toBe(true);
    expect(returned).toBe(false);
    expect(await queueRow("w_stop", "stuck")).toMatchObject({ owner: null });
    expect((await stateOf(engine, "w_stop", "stuck")).version).toBe(1);
    // What the abandoned handler returns now is never written (the history below has one `assembling`).
    letGo.open();

    const next = await startEngine("w_stop");
    const view = await untilState(next, "w_stop", "stuck", "done");
    expect(view.history.filter((h) => h.state.state === "assembling")).toHaveLength(1);
  });

  it("with releaseClaimsAtStart, runs at once what a killed run had claimed (no wait for the lease)", async () => {
    const first = await startEngine("w_killed", { hook: async () => new Promise<void>(() => undefined) });
    await addWidget(first, "w_killed", "orphan");
    await waitFor(async () => (await queueRow("w_killed", "orphan"))?.owner === first.processorId, {
      timeoutMs: Number.POSITIVE_INFINITY,
    });
    await first.stop({ graceMs: 0 });
    // As after SIGKILL (a graceful stop gave the claim back): the claim stays with its owner for the lease.
    await testDb.database.db
      .updateTable("state_queue")
      .set({ owner: "killed-replica", lease_expires_at: new Date(Date.now() + 3_600_000) })
      .where("object_id", "=", "orphan")
      .execute();

    const plain = await startEngine("w_killed");
    // Another object run to the end by `plain`: its worker has claimed since, and left the orphan alone.
    await addWidget(plain, "w_killed", "killed-probe");
    await untilState(plain, "w_killed", "killed-probe", "done");
    expect(await queueRow("w_killed", "orphan")).toMatchObject({ owner: "killed-replica" });
    expect((await stateOf(plain, "w_killed", "orphan")).version).toBe(1);
    await plain.stop({ graceMs: 0 });

    const restarted = await startEngine("w_killed", { releaseClaimsAtStart: true });
    await untilState(restarted, "w_killed", "orphan", "done");
  });

  it("exposes objects per state, transitions and queue depth as metrics", async () => {
    const registry = new Registry();
    const engine = await startEngine("w_metrics", { registry });
    await addWidget(engine, "w_metrics", "m1");
    await addWidget(engine, "w_metrics", "m2", { parts_ready: false });
    await untilState(engine, "w_metrics", "m1", "done");
    await untilOutcome(engine, "w_metrics", "m2", "wait");
    const text = await registry.metrics();
    expect(text).toContain('racksmith_state_objects{object_type="w_metrics",state="done"} 1');
    expect(text).toContain('racksmith_state_objects{object_type="w_metrics",state="assembling"} 1');
    expect(text).toContain(
      'racksmith_state_transitions_total{object_type="w_metrics",from="new",to="assembling"} 2',
    );
    expect(text).toContain('racksmith_state_queue_depth{object_type="w_metrics"} 0');
    expect(text).toMatch(
      /racksmith_state_handler_duration_seconds_count\{object_type="w_metrics",state="assembling",outcome="wait"\} 1/,
    );
    expect(text).toMatch(
      /racksmith_state_time_in_state_seconds_count\{object_type="w_metrics",state="new"\} 2/,
    );
  });

  it("rejects duplicates, unknown objects and unknown types with typed errors", async () => {
    const engine = await startEngine("w_api");
    await addWidget(engine, "w_api", "a1", { parts_ready: false });
    await expect(engine.createObject("w_api", "a1", { state: "new" })).rejects.toMatchObject({
      code: "state_object_exists",
    });
    await expect(engine.enqueue("w_api", "missing")).rejects.toMatchObject({
      code: "state_object_not_found",
    });
    await expect(engine.enqueue("nope", "a1")).rejects.toMatchObject({ code: "state_unknown_object_type" });
    await expect(engine.createObject("w_api", "", { state: "new" })).rejects.toMatchObject({
      code: "invalid_argument",
    });
    expect(await engine.getObjectState("w_api", "missing")).toBeUndefined();
  });

  it("lists objects by state tag with paging", async () => {
    const engine = await startEngine("w_list");
    for (const id of ["l1", "l2", "l3"]) await addWidget(engine, "w_list", id, { parts_ready: id !== "l2" });
    await untilState(engine, "w_list", "l1", "done");
    await untilState(engine, "w_list", "l3", "done");
    await untilOutcome(engine, "w_list", "l2", "wait");

    const done = await engine.listObjects("w_list", { state: "done" });
    expect(done.map((v) => v.objectId)).toEqual(["l1", "l3"]);
    const page = await engine.listObjects("w_list", { limit: 2 });
    expect(page.map((v) => v.objectId)).toEqual(["l1", "l2"]);
    const rest = await engine.listObjects("w_list", { limit: 2, after: "l2" });
    expect(rest.map((v) => [v.objectId, v.stateLabel])).toEqual([["l3", "done"]]);
    expect((await engine.getObjectState("w_list", "l1", { historyLimit: 1 }))?.history).toHaveLength(1);
  });
});
