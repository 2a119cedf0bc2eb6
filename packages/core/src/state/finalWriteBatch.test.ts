import { openTestDatabase, type TestDatabase } from "@racksmith/server/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { finalWriteLanded, HISTORY_TRIM_EVERY, type StateWrite, writeFinal } from "./finalWrite.js";
import { type BatchedWrite, writeFinalBatch } from "./finalWriteBatch.js";
import { claimDue, enqueueObject } from "./queue.js";
import type { Claim } from "./records.js";

/**
 * The batched final write must leave exactly what each run's own `writeFinal` leaves. Two object types hold
 * the same objects in the same situations; one type's runs write one at a time, the other's in one batch;
 * every row of objects, history and queue (and every result) must then match.
 */

const T0 = Date.parse("2030-01-01T00:00:00Z");
const at = (ms: number) => new Date(T0 + ms);
const HISTORY_LIMIT = 3;
const LEASE_MS = 60_000;

interface Case {
  id: string;
  /** The object's version when claimed (history rows 1…version exist). */
  version?: number;
  /** Its stored outcome before the run. */
  outcome?: object;
  /** An enqueue while the run holds the claim. */
  enqueuedDuringRun?: boolean;
  write: Exclude<StateWrite, { kind: "delete" }>;
  keepClaimMs?: number;
  /** The run's claim was taken over meanwhile. */
  claimLost?: boolean;
  /** Someone moved the object's version meanwhile. */
  versionMoved?: boolean;
}

const next = (state: string): StateWrite & { kind: "transition" } => ({
  kind: "transition",
  next: { state },
  outcome: { kind: "transition", at: at(5_000).toISOString() },
  historyLimit: HISTORY_LIMIT,
});
const waiting = {
  kind: "outcome",
  outcome: { kind: "wait", reason: "parts", at: at(5_000).toISOString() },
} as const;

const CASES: Case[] = [
  { id: "transition-requeued", write: next("b") },
  { id: "transition-kept", write: next("b"), keepClaimMs: 30_000 },
  { id: "wait-removed", write: waiting },
  { id: "wait-enqueued-requeued", write: waiting, enqueuedDuringRun: true },
  { id: "transition-enqueued", write: next("b"), enqueuedDuringRun: true },
  { id: "kept-enqueued", write: next("b"), keepClaimMs: 30_000, enqueuedDuringRun: true },
  {
    id: "after-error",
    write: next("b"),
    outcome: { kind: "error", error: { code: "x", message: "m" }, at: "t" },
  },
  { id: "after-transition", write: next("b"), outcome: { kind: "transition", at: "t" } },
  { id: "trims-history", version: HISTORY_TRIM_EVERY - 1, write: next("b") },
  { id: "no-trim-yet", version: HISTORY_TRIM_EVERY - 2, write: next("b") },
  { id: "claim-lost", write: next("b"), claimLost: true },
  { id: "version-moved", write: next("b"), versionMoved: true },
  { id: "version-moved-wait", write: waiting, versionMoved: true },
];

let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await openTestDatabase("final_batch");
});
afterAll(async () => {
  await testDb?.close();
});

async function seed(objectType: string, c: Case): Promise<void> {
  const db = testDb.database.db;
  const version = c.version ?? 1;
  await sql`INSERT INTO state_objects (object_type, object_id, state, version, state_entered_at, outcome,
      created_at, updated_at)
    VALUES (${objectType}, ${c.id}, '{"state":"a"}'::jsonb, ${version}, ${at(0)}::timestamptz,
      ${c.outcome ? JSON.stringify(c.outcome) : null}::jsonb, ${at(0)}::timestamptz, ${at(0)}::timestamptz)`.execute(
    db,
  );
  await sql`INSERT INTO state_history (object_type, object_id, version, state, entered_at)
    SELECT ${objectType}, ${c.id}, v, '{"state":"a"}'::jsonb, ${at(0)}::timestamptz
    FROM generate_series(1, ${version}::int) AS v`.execute(db);
  await sql`INSERT INTO state_queue (object_type, object_id, due_at, enqueued_at)
    VALUES (${objectType}, ${c.id}, ${at(0)}::timestamptz, ${at(0)}::timestamptz)`.execute(db);
}

/** Seeds every case under `objectType`, claims them all, and applies what happens during the runs. */
async function claimedRuns(objectType: string): Promise<BatchedWrite[]> {
  const db = testDb.database.db;
  for (const c of CASES) await seed(objectType, c);
  const claims = await claimDue(db, {
    objectType,
    owner: "me",
    now: at(1_000),
    leaseMs: LEASE_MS,
    limit: CASES.length,
  });
  expect(claims).toHaveLength(CASES.length);
  const byId = new Map(claims.map((claim) => [claim.objectId, claim]));
  return Promise.all(
    CASES.map(async (c): Promise<BatchedWrite> => {
      const claim = byId.get(c.id) as Claim;
      if (c.enqueuedDuringRun) await enqueueObject(db, { objectType, objectId: c.id }, at(2_000), "unused");
      if (c.claimLost) {
        await sql`UPDATE state_queue SET owner = 'other', claim_count = claim_count + 1
          WHERE object_type = ${objectType} AND object_id = ${c.id}`.execute(db);
      }
      if (c.versionMoved) {
        await sql`UPDATE state_objects SET version = version + 1
          WHERE object_type = ${objectType} AND object_id = ${c.id}`.execute(db);
      }
      return {
        claim,
        expectedVersion: claim.current.version,
        write: c.write,
        now: at(5_000),
        ...(c.keepClaimMs === undefined ? {} : { keepClaimMs: c.keepClaimMs }),
      };
    }),
  );
}

/** Every row the writes touch, keyed by object id (the object type left out). */
async function snapshot(objectType: string): Promise<unknown> {
  const db = testDb.database.db;
  const objects = await sql`SELECT object_id, state, version, state_entered_at, outcome, updated_at
    FROM state_objects WHERE object_type = ${objectType} ORDER BY object_id`.execute(db);
  const history = await sql`SELECT object_id, version, state, entered_at, exit_outcome
    FROM state_history WHERE object_type = ${objectType} ORDER BY object_id, version`.execute(db);
  const queue = await sql`SELECT object_id, due_at, enqueued_at, owner, claim_count, lease_expires_at,
      rerun_requested_at
    FROM state_queue WHERE object_type = ${objectType} ORDER BY object_id`.execute(db);
  return { objects: objects.rows, history: history.rows, queue: queue.rows };
}

describe("writeFinalBatch", () => {
  it("leaves every object, history and queue row as the runs' own final writes would", async () => {
    const db = testDb.database.db;
    const single = await claimedRuns("one_by_one");
    const singleResults = [];
    for (const run of single) {
      singleResults.push(
        await writeFinal(db, run.claim, {
          expectedVersion: run.expectedVersion,
          write: run.write,
          now: run.now,
          ...(run.keepClaimMs === undefined ? {} : { keepClaimMs: run.keepClaimMs }),
        }),
      );
    }
    const batched = await claimedRuns("batched");
    const batchResults = await writeFinalBatch(db, "batched", batched, HISTORY_LIMIT);

    expect(batchResults).toEqual(singleResults);
    expect(await snapshot("batched")).toEqual(await snapshot("one_by_one"));

    // And the cases did what they are named for (so the comparison is not between two no-ops).
    const result = (id: string) => batchResults[CASES.findIndex((c) => c.id === id)];
    expect(result("transition-kept")).toEqual({ held: true, written: true });
    expect(result("claim-lost")).toEqual({ held: false, written: false });
    expect(result("version-moved")).toEqual({ held: true, written: false });
    const rows = (await snapshot("batched")) as {
      queue: { object_id: string; owner: string | null }[];
      history: { object_id: string; version: number; exit_outcome: { kind: string } | null }[];
    };
    const queued = new Map(rows.queue.map((row) => [row.object_id, row.owner]));
    expect(queued.get("transition-kept")).toBe("me");
    expect(queued.get("transition-requeued")).toBeNull();
    expect(queued.has("wait-removed")).toBe(false);
    expect(queued.get("wait-enqueued-requeued")).toBeNull();
    const versions = (id: string) => rows.history.filter((h) => h.object_id === id).map((h) => h.version);
    expect(versions("trims-history")).toEqual([6, 7, 8]);
    expect(versions("no-trim-yet")).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const closed = rows.history.find((h) => h.object_id === "after-error" && h.version === 1);
    expect(closed?.exit_outcome?.kind).toBe("error");
  });

  it("answers every run of an empty-handed batch: a claim nobody holds any more writes nothing", async () => {
    const db = testDb.database.db;
    const runs = await claimedRuns("all_lost");
    await sql`UPDATE state_queue SET owner = 'other' WHERE object_type = 'all_lost'`.execute(db);
    const before = await snapshot("all_lost");
    const results = await writeFinalBatch(db, "all_lost", runs, HISTORY_LIMIT);
    expect(results).toEqual(runs.map(() => ({ held: false, written: false })));
    expect(await snapshot("all_lost")).toEqual(before);
  });
});

describe("finalWriteLanded", () => {
  const landedAll = (runs: readonly BatchedWrite[]) =>
    Promise.all(runs.map((run) => finalWriteLanded(testDb.database.db, run.claim, run)));

  it("finds every write a single statement wrote, and none it did not (claim lost, version moved)", async () => {
    const db = testDb.database.db;
    const runs = await claimedRuns("landed_one");
    expect(await landedAll(runs)).toEqual(runs.map(() => false));
    const written = [];
    for (const run of runs) {
      const result = await writeFinal(db, run.claim, {
        expectedVersion: run.expectedVersion,
        write: run.write,
        now: run.now,
        ...(run.keepClaimMs === undefined ? {} : { keepClaimMs: run.keepClaimMs }),
      });
      written.push(result.written);
    }
    expect(written).toContain(false);
    expect(await landedAll(runs)).toEqual(written);
  });

  it("finds every write of a batch the same way", async () => {
    const runs = await claimedRuns("landed_batch");
    const results = await writeFinalBatch(testDb.database.db, "landed_batch", runs, HISTORY_LIMIT);
    expect(await landedAll(runs)).toEqual(results.map((result) => result.written));
  });

  it("finds a deletion by the object being gone", async () => {
    const db = testDb.database.db;
    const [run] = await claimedRuns("landed_delete");
    if (!run) throw new Error("no run claimed");
    const deletion = { ...run, write: { kind: "delete" } as const };
    expect(await finalWriteLanded(db, run.claim, deletion)).toBe(false);
    expect(await writeFinal(db, run.claim, deletion)).toEqual({ held: true, written: true });
    expect(await finalWriteLanded(db, run.claim, deletion)).toBe(true);
  });
});
