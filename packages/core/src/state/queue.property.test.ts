import { openTestDatabase, type TestDatabase } from "@racksmith/server/testing";
import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimDue, completeClaim, enqueueObject } from "./queue.js";
import type { Claim } from "./records.js";

/**
 * Model-based test of the queue SQL: random interleavings of enqueue, claim, complete (by the holder, or by
 * a worker whose claim was taken over), crash (a worker forgets its claims) and time passing. The model says
 * exactly which rows must exist and who must own them; after every step the table must match it.
 */

const TYPE = "prop";
const OBJECTS = ["a", "b", "c"];
const WORKERS = ["w1", "w2", "w3"];
const LEASE_MS = 1_000;
const CHANNEL = "racksmith_prop_test";
const START = Date.parse("2030-01-01T00:00:00Z");

interface Holder {
  worker: string;
  claimCount: number;
  leaseUntil: number;
}

interface Model {
  now: number;
  /** Objects with a queue row. */
  queued: Set<string>;
  holder: Map<string, Holder>;
  /** Enqueues not yet served by a claim that started after them. */
  pending: Set<string>;
  /** Claims live workers still hold in memory (stale after a takeover, even a worker's own). */
  handles: Claim[];
}

interface Real {
  testDb: TestDatabase;
}

let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await openTestDatabase("queue");
  for (const id of OBJECTS) {
    await sql`INSERT INTO state_objects (object_type, object_id, state, version, state_entered_at, created_at, updated_at)
      VALUES (${TYPE}, ${id}, '{"state":"x"}'::jsonb, 1, now(), now(), now())`.execute(testDb.database.db);
  }
});
afterAll(async () => {
  await testDb?.close();
});

const at = (model: Model) => new Date(model.now);
const live = (holder: Holder | undefined, now: number) => holder !== undefined && holder.leaseUntil > now;

class Enqueue implements fc.AsyncCommand<Model, Real> {
  constructor(readonly id: string) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const found = await enqueueObject(
      real.testDb.database.db,
      { objectType: TYPE, objectId: this.id },
      at(model),
      CHANNEL,
    );
    expect(found).toBe(true);
    model.queued.add(this.id);
    model.pending.add(this.id);
  }
  toString = () => `enqueue(${this.id})`;
}

class ClaimDue implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly worker: string,
    readonly limit: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const claimable = [...model.queued].filter((id) => !live(model.holder.get(id), model.now));
    const claims = await claimDue(real.testDb.database.db, {
      objectType: TYPE,
      owner: this.worker,
      now: at(model),
      leaseMs: LEASE_MS,
      limit: this.limit,
    });
    // Every claimable row is offered (nothing is stuck), and never one with a live claim.
    expect(claims).toHaveLength(Math.min(this.limit, claimable.length));
    for (const claim of claims) {
      expect(claimable).toContain(claim.objectId);
      model.holder.set(claim.objectId, {
        worker: this.worker,
        claimCount: claim.claimCount,
        leaseUntil: model.now + LEASE_MS,
      });
      model.pending.delete(claim.objectId);
      model.handles.push(claim);
    }
  }
  toString = () => `claim(${this.worker}, ${this.limit})`;
}

class Complete implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number,
    readonly transitioned: boolean,
  ) {}
  check = (model: Readonly<Model>) => model.handles.length > 0;
  async run(model: Model, real: Real) {
    // Any claim a live worker still holds — possibly one taken over since.
    const [claim] = model.handles.splice(this.pick % model.handles.length, 1);
    if (!claim) return;
    const holder = model.holder.get(claim.objectId);
    const owns = holder?.worker === claim.owner && holder.claimCount === claim.claimCount;
    const ended = await completeClaim(real.testDb.database.db, claim, {
      runAgain: this.transitioned,
      now: at(model),
    });
    // Only the current holder can end a claim; a taken-over worker changes nothing.
    expect(ended).toBe(owns);
    if (!owns) return;
    model.holder.delete(claim.objectId);
    // A transition re-runs at once; an enqueue that arrived during the claim is kept, not lost.
    if (!this.transitioned && !model.pending.has(claim.objectId)) model.queued.delete(claim.objectId);
  }
  toString = () => `complete(#${this.pick}, ${this.transitioned ? "transition" : "done"})`;
}

class Crash implements fc.AsyncCommand<Model, Real> {
  constructor(readonly worker: string) {}
  check = () => true;
  async run(model: Model) {
    model.handles = model.handles.filter((claim) => claim.owner !== this.worker);
  }
  toString = () => `crash(${this.worker})`;
}

class Advance implements fc.AsyncCommand<Model, Real> {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(model: Model) {
    model.now += this.ms;
  }
  toString = () => `advance(${this.ms})`;
}

/** The table must be exactly what the model says: which rows exist, and who owns each. */
async function expectTableMatches(model: Model, real: Real): Promise<void> {
  const rows = await real.testDb.database.db
    .selectFrom("state_queue")
    .select(["object_id", "owner", "claim_count"])
    .where("object_type", "=", TYPE)
    .orderBy("object_id")
    .execute();
  expect(rows.map((row) => row.object_id)).toEqual([...model.queued].sort());
  for (const row of rows) {
    const holder = model.holder.get(row.object_id);
    expect({ id: row.object_id, owner: row.owner }).toEqual({
      id: row.object_id,
      owner: holder?.worker ?? null,
    });
    if (holder) expect(row.claim_count).toBe(holder.claimCount);
  }
}

const enqueue = fc.constantFrom(...OBJECTS).map((id) => new Enqueue(id));
const claim = fc
  .tuple(fc.constantFrom(...WORKERS), fc.integer({ min: 1, max: 3 }))
  .map(([w, n]) => new ClaimDue(w, n));
const complete = fc.tuple(fc.nat(), fc.boolean()).map(([i, t]) => new Complete(i, t));
const crash = fc.constantFrom(...WORKERS).map((w) => new Crash(w));
const advance = fc.integer({ min: 0, max: 1_500 }).map((ms) => new Advance(ms));
// Listed twice to weigh the interesting steps up.
const commands = [
  enqueue,
  enqueue,
  claim,
  claim,
  claim,
  complete,
  complete,
  complete,
  crash,
  advance,
  advance,
];

describe("queue (property)", () => {
  it("never has two live owners of a row, loses no enqueue, and lets only the owner complete", async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 50, size: "max" }), async (cmds) => {
        await sql`DELETE FROM state_queue WHERE object_type = ${TYPE}`.execute(testDb.database.db);
        const model: Model = {
          now: START,
          queued: new Set(),
          holder: new Map(),
          pending: new Set(),
          handles: [],
        };
        const real: Real = { testDb };
        const checked = [...cmds].map((command) => ({
          check: (m: Readonly<Model>) => command.check(m),
          run: async (m: Model, r: Real) => {
            await command.run(m, r);
            await expectTableMatches(m, r);
          },
          toString: () => command.toString(),
        }));
        await fc.asyncModelRun(() => ({ model, real }), checked);

        // Drain after every lease has expired: every pending enqueue must still be claimable.
        model.now += LEASE_MS + 1;
        const drained = await claimDue(testDb.database.db, {
          objectType: TYPE,
          owner: "drain",
          now: at(model),
          leaseMs: LEASE_MS,
          limit: OBJECTS.length,
        });
        const claimed = new Set(drained.map((claim) => claim.objectId));
        for (const id of model.pending) expect(claimed).toContain(id);
      }),
      { numRuns: Number(process.env.RACKSMITH_PROPERTY_RUNS ?? 80) },
    );
    // Thousands of statements: seconds alone, far more beside every other package on a two-core CI machine.
  }, 300_000);
});
