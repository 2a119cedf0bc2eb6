import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase, waitFor } from "@racksmith/server/testing";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { CHAIN_TYPE, chainMachine, createEventsTable } from "../../test/engine/chainMachine.js";
import { StateEngine } from "./engine.js";

/**
 * Several engines in separate processes on one real PostgreSQL schema. PGlite is one process by nature,
 * so these run only when RACKSMITH_TEST_DATABASE_URL is set.
 */

const WORKER = fileURLToPath(new URL("../../test/engine/worker.ts", import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));

if (!TEST_DATABASE_URL) {
  console.warn(
    "exclusivity tests skipped: they need engines in separate processes sharing a real PostgreSQL — set RACKSMITH_TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to run them",
  );
}

const children: ChildProcess[] = [];
const databases: TestDatabase[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  await Promise.all(databases.splice(0).map((db) => db.close()));
});

async function setUp(): Promise<TestDatabase> {
  const testDb = await openTestDatabase("excl");
  databases.push(testDb);
  await createEventsTable(testDb.database);
  return testDb;
}

async function createChains(testDb: TestDatabase, count: number): Promise<string[]> {
  // Only used for createObject: it never starts, so it claims nothing.
  const creator = new StateEngine({
    database: testDb.database,
    machines: [chainMachine({ database: testDb.database, steps: 0, worker: "creator" })],
  });
  const ids = Array.from({ length: count }, (_, i) => `obj-${String(i).padStart(4, "0")}`);
  for (const id of ids) await creator.createObject(CHAIN_TYPE, id, { state: "s0" });
  return ids;
}

function startWorker(
  testDb: TestDatabase,
  name: string,
  options: { steps: number; config: Record<string, number>; slowState?: string; slowMs?: number },
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--conditions=@racksmith/source", "--import", "tsx", WORKER], {
    cwd: PACKAGE_DIR,
    env: {
      ...process.env,
      WORKER_NAME: name,
      WORKER_SCHEMA: testDb.schema,
      WORKER_STEPS: String(options.steps),
      WORKER_SLOW_STATE: options.slowState ?? "",
      WORKER_SLOW_MS: String(options.slowMs ?? 0),
      WORKER_ENGINE_CONFIG: JSON.stringify(options.config),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve(child);
    });
    child.once("exit", (code) =>
      reject(new Error(`worker ${name} exited with ${code} before it was ready: ${stderr}`)),
    );
  });
}

function stopWorker(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.kill("SIGTERM");
  });
}

async function countInState(testDb: TestDatabase, state: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*) AS n FROM state_objects WHERE state ->> 'state' = ${state}`.execute(testDb.database.db);
  return rows[0]?.n ?? 0;
}

/** Objects whose history is not exactly s0 … s{steps}, one row per step. */
async function badHistories(testDb: TestDatabase, steps: number): Promise<string[]> {
  const { rows } = await sql<{ object_id: string }>`
    SELECT object_id FROM state_history
    GROUP BY object_id
    HAVING count(*) <> ${steps + 1}::int
      OR bool_or(state ->> 'state' <> 's' || (version - 1)::text)
      OR min(version) <> 1 OR max(version) <> ${steps + 1}::int`.execute(testDb.database.db);
  return rows.map((row) => row.object_id);
}

describe("exclusivity across processes", () => {
  it.skipIf(!TEST_DATABASE_URL)(
    "never runs one object in two processes at once, and loses no transition",
    async () => {
      const steps = 4;
      const testDb = await setUp();
      const config = { pollIntervalMs: 200, iterationIntervalMs: 600_000, concurrency: 8 };
      const workers = await Promise.all([
        startWorker(testDb, "worker-a", { steps, config }),
        startWorker(testDb, "worker-b", { steps, config }),
      ]);
      const ids = await createChains(testDb, 150);
      await waitFor(async () => (await countInState(testDb, `s${steps}`)) === ids.length, {
        timeoutMs: 40_000,
        what: "every object to reach its last state",
      });
      expect(await Promise.all(workers.map(stopWorker))).toEqual([0, 0]);

      const { rows: overlaps } = await sql<{ object_id: string }>`
        SELECT object_id FROM (
          SELECT object_id, kind, lag(kind) OVER (PARTITION BY object_id ORDER BY seq) AS previous
          FROM handler_events
        ) e
        WHERE (kind = 'start' AND previous = 'start') OR (kind = 'end' AND previous IS DISTINCT FROM 'start')`.execute(
        testDb.database.db,
      );
      expect(overlaps).toEqual([]);
      const { rows: runs } = await sql<{ object_id: string; state: string; n: number }>`
        SELECT object_id, state, count(*) AS n FROM handler_events WHERE kind = 'start'
        GROUP BY object_id, state HAVING count(*) <> 1`.execute(testDb.database.db);
      expect(runs).toEqual([]);
      const { rows: total } = await sql<{ n: number }>`
        SELECT count(*) AS n FROM handler_events WHERE kind = 'start'`.execute(testDb.database.db);
      expect(total[0]?.n).toBe(ids.length * steps);
      expect(await badHistories(testDb, steps)).toEqual([]);
      const { rows: perWorker } = await sql<{ worker: string; n: number }>`
        SELECT worker, count(*) AS n FROM handler_events GROUP BY worker ORDER BY worker`.execute(
        testDb.database.db,
      );
      // Both processes really competed for the same rows.
      expect(perWorker.map((row) => row.worker)).toEqual(["worker-a", "worker-b"]);
    },
    90_000,
  );

  it.skipIf(!TEST_DATABASE_URL)(
    "hands the objects of a process killed mid-handler to another one after their lease expires",
    async () => {
      const steps = 3;
      const leaseMs = 3_000;
      const testDb = await setUp();
      const doomed = await startWorker(testDb, "doomed", {
        steps,
        slowState: "s1",
        slowMs: 2_000,
        config: {
          pollIntervalMs: 100,
          iterationIntervalMs: 600_000,
          concurrency: 6,
          handlerTimeoutMs: 2_500,
          leaseMs,
        },
      });
      const ids = await createChains(testDb, 12);
      const midHandler = async () => {
        const { rows } = await sql<{ n: number }>`
          SELECT count(*) AS n FROM handler_events WHERE worker = 'doomed' AND state = 's1' AND kind = 'start'`.execute(
          testDb.database.db,
        );
        return (rows[0]?.n ?? 0) >= 6;
      };
      await waitFor(midHandler, { timeoutMs: 20_000, what: "the doomed worker to be in its slow handlers" });
      doomed.kill("SIGKILL");

      await startWorker(testDb, "survivor", {
        steps,
        config: { pollIntervalMs: 100, iterationIntervalMs: 600_000, concurrency: 6 },
      });
      await waitFor(async () => (await countInState(testDb, `s${steps}`)) === ids.length, {
        timeoutMs: 30_000,
        what: "every object to finish on the survivor",
      });

      // Each killed run left a start without an end; the survivor started that step only after the lease.
      const { rows: takeovers } = await sql<{ object_id: string; gap_ms: number }>`
        SELECT d.object_id, s.at_ms - d.at_ms AS gap_ms
        FROM handler_events d
        JOIN handler_events s ON s.object_id = d.object_id AND s.state = d.state AND s.worker = 'survivor'
          AND s.kind = 'start'
        WHERE d.worker = 'doomed' AND d.kind = 'start' AND NOT EXISTS (
          SELECT 1 FROM handler_events e WHERE e.object_id = d.object_id AND e.state = d.state
            AND e.worker = 'doomed' AND e.kind = 'end')`.execute(testDb.database.db);
      expect(takeovers.length).toBeGreaterThanOrEqual(6);
      for (const takeover of takeovers) expect(takeover.gap_ms).toBeGreaterThan(leaseMs - 500);
      // The killed runs wrote nothing: every step is in the history exactly once.
      expect(await badHistories(testDb, steps)).toEqual([]);
    },
    90_000,
  );
});
