import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openTestDatabase, type TestDatabase, waitFor } from "../../test/engine/testDatabase.js";
import { channelName } from "../db/index.js";
import { BMC_ENDPOINTS_CHANGED_TOPIC } from "../inventory/index.js";
import { silentLogger } from "../logging/index.js";
import { ExplorationLoop, SITE_EXPLORER_WORK_LOCK } from "./explorationLoop.js";

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await openTestDatabase("exploreloop");
});
afterAll(async () => {
  await testDb.close();
});

describe("the exploration loop", () => {
  it("runs on the one replica holding the work lock, which also serves run requests from any replica", async () => {
    const runs: Array<{ owner: string; start: number; end: number; deadline: number }> = [];
    const loop = (owner: string) =>
      new ExplorationLoop({
        database: testDb.database,
        owner,
        intervalMs: 60_000,
        marginMs: 5_000,
        logger: silentLogger,
        random: () => 0,
        run: async (deadline) => {
          const start = Date.now();
          await new Promise((resolve) => setImmediate(resolve));
          runs.push({ owner, start, end: Date.now(), deadline });
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
      for (const run of runs) expect(run.deadline - run.start).toBeLessThanOrEqual(55_000);
      const { rows } = await sql<{
        owner: string;
      }>`SELECT owner FROM work_locks WHERE work_key = ${SITE_EXPLORER_WORK_LOCK}`.execute(
        testDb.database.db,
      );
      expect(rows).toEqual([{ owner: leader }]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
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
    const { loop, counts, release } = gatedLoop("solo");
    await loop.start();
    await waitFor(() => counts.runs === 1, { what: "the first run" });
    await loop.requestRun();
    await loop.requestRun();
    // Let the (5 ms) debounced requests reach the loop while the first run still holds it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await waitFor(() => counts.finished === 2, { what: "one more run" });
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
    afterEach(() => {
      vi.useRealTimers();
    });

    /** Lets real I/O (the database) progress while the loop's timers are fake: polls on setImmediate. */
    async function until(check: () => boolean, what: string): Promise<void> {
      const deadline = Date.now() + 5_000;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }

    /** Gives a run the loop should not start time to show (real time; the loop's timers are fake). */
    async function settle(): Promise<void> {
      const until = Date.now() + 100;
      while (Date.now() < until) await new Promise((resolve) => setImmediate(resolve));
    }

    /** Sends `count` announcements and returns once the loop (listening on the same connection) heard them. */
    async function announce(count: number): Promise<void> {
      const channel = channelName(BMC_ENDPOINTS_CHANGED_TOPIC, testDb.schema);
      let heard = 0;
      const stop = await testDb.database.listen(channel, () => heard++);
      try {
        for (let i = 0; i < count; i++) await testDb.database.notify(channel, `AA:00:00:00:00:${i % 10}0`);
        await until(() => heard === count, "the announcements");
      } finally {
        await stop();
      }
    }

    it("runs once after a burst, not before the delay, at most once per delay", async () => {
      await sql`DELETE FROM work_locks`.execute(testDb.database.db);
      // Only the loop's timers are fake; the database's I/O stays real.
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      let runs = 0;
      const loop = new ExplorationLoop({
        database: testDb.database,
        owner: "announced",
        intervalMs: 600_000,
        marginMs: 1_000,
        logger: silentLogger,
        random: () => 0.5,
        newEndpointDelayMs: DELAY,
        run: async () => {
          runs++;
          return undefined;
        },
      });
      await loop.start();
      try {
        await vi.advanceTimersByTimeAsync(1_000);
        await until(() => runs === 1, "the first periodic run");

        // A fleet booting: many announcements within the delay make one run, DELAY after the first.
        await announce(20);
        await vi.advanceTimersByTimeAsync(DELAY / 2);
        await announce(20);
        await vi.advanceTimersByTimeAsync(DELAY / 2 - 1);
        await settle();
        expect(runs).toBe(1);
        await vi.advanceTimersByTimeAsync(1);
        await until(() => runs === 2, "the run for the new endpoints");
        await vi.advanceTimersByTimeAsync(10 * DELAY);
        await settle();
        expect(runs).toBe(2);

        // Announcements after that run schedule the next one, again one per delay.
        await announce(5);
        await vi.advanceTimersByTimeAsync(DELAY);
        await until(() => runs === 3, "the next run for new endpoints");
        await vi.advanceTimersByTimeAsync(10 * DELAY);
        await settle();
        expect(runs).toBe(3);
      } finally {
        await loop.stop();
      }
    });

    it("runs again one delay later, not an interval later, while a run leaves endpoints never explored", async () => {
      await sql`DELETE FROM work_locks`.execute(testDb.database.db);
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      let runs = 0;
      const loop = new ExplorationLoop({
        database: testDb.database,
        owner: "backlog",
        intervalMs: 600_000,
        marginMs: 1_000,
        logger: silentLogger,
        random: () => 0.5,
        newEndpointDelayMs: DELAY,
        // Two runs' worth of never-explored endpoints, then none.
        run: async () => ({ backlog: ++runs < 3 }),
      });
      await loop.start();
      try {
        await vi.advanceTimersByTimeAsync(1_000);
        await until(() => runs === 1, "the first periodic run");
        await vi.advanceTimersByTimeAsync(DELAY);
        await until(() => runs === 2, "the run for the backlog");
        await vi.advanceTimersByTimeAsync(DELAY);
        await until(() => runs === 3, "the run for the rest of the backlog");
        await vi.advanceTimersByTimeAsync(10 * DELAY);
        await settle();
        expect(runs).toBe(3);
      } finally {
        await loop.stop();
      }
    });

    it("forgets a scheduled run when stopped", async () => {
      await sql`DELETE FROM work_locks`.execute(testDb.database.db);
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      let runs = 0;
      const loop = new ExplorationLoop({
        database: testDb.database,
        owner: "stopped",
        intervalMs: 600_000,
        marginMs: 1_000,
        logger: silentLogger,
        random: () => 0.5,
        newEndpointDelayMs: DELAY,
        run: async () => {
          runs++;
          return undefined;
        },
      });
      await loop.start();
      await vi.advanceTimersByTimeAsync(1_000);
      await until(() => runs === 1, "the first periodic run");
      await announce(1);
      await loop.stop();
      await vi.advanceTimersByTimeAsync(10 * DELAY);
      await settle();
      expect(runs).toBe(1);
    });
  });
});
