import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase, waitFor } from "../../test/engine/testDatabase.js";
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
});
