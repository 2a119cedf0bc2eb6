import { silentLogger } from "@racksmith/core";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { channelName } from "../db/index.js";
import { BMC_ENDPOINTS_CHANGED_TOPIC } from "../inventory/index.js";
import { openTestDatabase, type TestDatabase, waitFor } from "../testing/index.js";
import { ExplorationLoop, SITE_EXPLORER_WORK_LOCK } from "./explorationLoop.js";

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await openTestDatabase("exploreloop");
});
afterAll(async () => {
  await testDb.close();
});

/**
 * How the fake-timer tests wait for what real I/O (the database) brings about: a check every turn of the event
 * loop (the shared `waitFor` never waits on the fake clock), failing only when the condition is clearly never
 * coming.
 */
const LOOP_TURNS = { intervalMs: "immediate", timeoutMs: 20_000 } as const;

/**
 * Counts the NOTIFYs on `topic` from now on. The loop listens on the same connection and started listening
 * first, so it has heard every notification this count includes (listeners are called in the order added).
 */
async function countNotifications(topic: string): Promise<{ heard(): number; stop(): Promise<void> }> {
  let heard = 0;
  const stop = await testDb.database.listen(channelName(topic, testDb.schema), () => heard++);
  return { heard: () => heard, stop };
}

describe("the exploration loop", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs on the one replica holding the work lock, which also serves run requests from any replica", async () => {
    const runs: Array<{ owner: string; deadline: number }> = [];
    const loop = (owner: string) =>
      new ExplorationLoop({
        database: testDb.database,
        owner,
        intervalMs: 60_000,
        marginMs: 5_000,
        logger: silentLogger,
        random: () => 0,
        run: async (deadline) => {
          await new Promise((resolve) => setImmediate(resolve));
          runs.push({ owner, deadline });
          return undefined;
        },
      });
    const a = loop("replica-a");
    const b = loop("replica-b");
    await Promise.all([a.start(), b.start()]);
    try {
      await waitFor(() => runs.length >= 1, { what: "the first run" });
      const leader = runs[0]?.owner;
      const follower = leader === "replica-a" ? b : a;
      await follower.requestRun();
      await waitFor(() => runs.length >= 2, { what: "the requested run" });
      expect(runs.map((run) => run.owner)).toEqual([leader, leader]);
      const { rows } = await sql<{
        owner: string;
        expires_at: Date | string;
      }>`SELECT owner, expires_at FROM work_locks WHERE work_key = ${SITE_EXPLORER_WORK_LOCK}`.execute(
        testDb.database.db,
      );
      expect(rows.map((row) => row.owner)).toEqual([leader]);
      // Both runs (the second within the same lock) stop starting explorations marginMs before the lock ends.
      const lockExpiresAt = new Date(rows[0]?.expires_at ?? Number.NaN).getTime();
      expect(runs.map((run) => run.deadline)).toEqual([lockExpiresAt - 5_000, lockExpiresAt - 5_000]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it("takes its own lock again for a run near the lock's end, so a backlog is not left for the next interval", async () => {
    await sql`DELETE FROM work_locks`.execute(testDb.database.db);
    const deadlines: number[] = [];
    // Every moment but the first 10 ms of the lock is within the margin: a run then has no time of its own.
    const loop = new ExplorationLoop({
      database: testDb.database,
      owner: "near-the-end",
      intervalMs: 60_000,
      marginMs: 59_990,
      logger: silentLogger,
      random: () => 0,
      pokeDelayMs: 5,
      run: async (deadline) => {
        deadlines.push(deadline);
        return undefined;
      },
    });
    await loop.start();
    try {
      await waitFor(() => deadlines.length === 1, { what: "the first run" });
      const firstDeadline = deadlines[0] ?? Number.NaN;
      // At least the 10 ms pass (a busy machine only makes it more, and the lock lasts a minute).
      await waitFor(() => Date.now() > firstDeadline, { what: "the first run's deadline to pass" });
      await loop.requestRun();
      // The request pokes the loop at once and again when its own NOTIFY comes back; on a busy machine that may
      // be after the 5 ms debounce, so two runs may follow it.
      await waitFor(() => deadlines.length >= 2, { what: "the run requested near the lock's end" });
      expect(deadlines[1]).toBeGreaterThan(firstDeadline);
      const { rows } = await sql<{ owner: string }>`SELECT owner FROM work_locks
        WHERE work_key = ${SITE_EXPLORER_WORK_LOCK}`.execute(testDb.database.db);
      expect(rows.map((row) => row.owner)).toEqual(["near-the-end"]);
    } finally {
      await loop.stop();
    }
  });

  function gatedLoop(owner: string) {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const counts = { runs: 0, finished: 0 };
    const loop = new ExplorationLoop({
      database: testDb.database,
      owner,
      intervalMs: 60_000,
      marginMs: 1_000,
      logger: silentLogger,
      random: () => 0,
      pokeDelayMs: 5,
      run: async () => {
        counts.runs++;
        if (counts.runs === 1) await gate;
        counts.finished++;
        return undefined;
      },
    });
    return { loop, counts, release: () => release() };
  }

  it("folds the requests arriving during a run into one more run", async () => {
    await sql`DELETE FROM work_locks`.execute(testDb.database.db);
    // The loop's timers (the first run, the 5 ms request debounce) are fake; the database's I/O stays real.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { loop, counts, release } = gatedLoop("solo");
    await loop.start();
    await vi.advanceTimersByTimeAsync(0);
    await waitFor(() => counts.runs === 1, { ...LOOP_TURNS, what: "the first run" });
    // Two requests while the first run holds the loop: each pokes it at once and through the NOTIFY it sends.
    // Once the loop heard both NOTIFYs and its debounce passed, both requests have reached it.
    const requests = await countNotifications("site_explorer");
    try {
      await loop.requestRun();
      await loop.requestRun();
      await waitFor(() => requests.heard() === 2, { ...LOOP_TURNS, what: "both requests' notifications" });
    } finally {
      await requests.stop();
    }
    await vi.advanceTimersByTimeAsync(5);
    release();
    await waitFor(() => counts.finished === 2, { ...LOOP_TURNS, what: "one more run" });
    // A further run would start at once (the loop holds its lock): let the run's continuations settle first.
    await new Promise((resolve) => setImmediate(resolve));
    expect(counts.runs).toBe(2);
    await loop.stop();
    expect(counts.runs).toBe(2);
  });

  it("stops only once the run in progress has finished", async () => {
    await sql`DELETE FROM work_locks`.execute(testDb.database.db);
    const { loop, counts, release } = gatedLoop("stopping");
    await loop.start();
    await waitFor(() => counts.runs === 1, { what: "the first run" });
    let stopped = false;
    const stopping = loop.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(counts).toEqual({ runs: 1, finished: 1 });
  });

  describe("when the inventory announces new BMC endpoints", () => {
    const DELAY = 5_000;

    /** Sends `count` announcements and returns once the loop heard them. */
    async function announce(count: number): Promise<void> {
      const announcements = await countNotifications(BMC_ENDPOINTS_CHANGED_TOPIC);
      try {
        const channel = channelName(BMC_ENDPOINTS_CHANGED_TOPIC, testDb.schema);
        for (let i = 0; i < count; i++) await testDb.database.notify(channel, `AA:00:00:00:00:${i % 10}0`);
        await waitFor(() => announcements.heard() === count, { ...LOOP_TURNS, what: "the announcements" });
      } finally {
        await announcements.stop();
      }
    }

    // The loop holds its lock (real time, 600 s) after the first run, so a run its timers start begins within
    // the timer's callback: right after the fake clock moves, `runs` already counts every run it started.

    /**
     * A loop whose timers are fake (the database's I/O stays real), once its first periodic run (1 s in) is
     * done: later runs come DELAY after announcements, or an interval (600 s) later. `backlog(n)`: whether run
     * `n` leaves endpoints never explored.
     */
    async function loopAfterFirstRun(
      owner: string,
      backlog?: (run: number) => boolean,
    ): Promise<{ loop: ExplorationLoop; runs(): number }> {
      await sql`DELETE FROM work_locks`.execute(testDb.database.db);
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      let runs = 0;
      const loop = new ExplorationLoop({
        database: testDb.database,
        owner,
        intervalMs: 600_000,
        marginMs: 1_000,
        logger: silentLogger,
        random: () => 0.5,
        newEndpointDelayMs: DELAY,
        run: async () => {
          runs++;
          return backlog ? { backlog: backlog(runs) } : undefined;
        },
      });
      await loop.start();
      try {
        await vi.advanceTimersByTimeAsync(1_000);
        await waitFor(() => runs === 1, { ...LOOP_TURNS, what: "the first periodic run" });
      } catch (error) {
        await loop.stop();
        throw error;
      }
      return { loop, runs: () => runs };
    }

    it("runs once after a burst, not before the delay, at most once per delay", async () => {
      const { loop, runs } = await loopAfterFirstRun("announced");
      try {
        // A fleet booting: many announcements within the delay make one run, DELAY after the first.
        await announce(20);
        await vi.advanceTimersByTimeAsync(DELAY / 2);
        await announce(20);
        await vi.advanceTimersByTimeAsync(DELAY / 2 - 1);
        expect(runs()).toBe(1);
        await vi.advanceTimersByTimeAsync(1);
        await waitFor(() => runs() === 2, { ...LOOP_TURNS, what: "the run for the new endpoints" });
        await vi.advanceTimersByTimeAsync(10 * DELAY);
        expect(runs()).toBe(2);

        // Announcements after that run schedule the next one, again one per delay.
        await announce(5);
        await vi.advanceTimersByTimeAsync(DELAY);
        await waitFor(() => runs() === 3, { ...LOOP_TURNS, what: "the next run for new endpoints" });
        await vi.advanceTimersByTimeAsync(10 * DELAY);
        expect(runs()).toBe(3);
      } finally {
        await loop.stop();
      }
    });

    it("runs again one delay later, not an interval later, while a run leaves endpoints never explored", async () => {
      // Two runs' worth of never-explored endpoints, then none.
      const { loop, runs } = await loopAfterFirstRun("backlog", (run) => run < 3);
      try {
        await vi.advanceTimersByTimeAsync(DELAY);
        await waitFor(() => runs() === 2, { ...LOOP_TURNS, what: "the run for the backlog" });
        await vi.advanceTimersByTimeAsync(DELAY);
        await waitFor(() => runs() === 3, { ...LOOP_TURNS, what: "the run for the rest of the backlog" });
        await vi.advanceTimersByTimeAsync(10 * DELAY);
        expect(runs()).toBe(3);
      } finally {
        await loop.stop();
      }
    });

    it("forgets a scheduled run when stopped", async () => {
      const { loop, runs } = await loopAfterFirstRun("stopped");
      await announce(1);
      await loop.stop();
      await vi.advanceTimersByTimeAsync(10 * DELAY);
      expect(runs()).toBe(1);
    });
  });
});
