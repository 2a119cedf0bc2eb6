import { type Kysely, sql } from "kysely";
import type { EngineTables } from "./database.js";
import type { GaugeSample } from "./metrics.js";
import { queueDepth } from "./queue.js";
import { stateLabel, stateSla } from "./runtime.js";
import type { StateMachine, TaggedState } from "./types.js";

/** The database-wide figures behind the gauges: objects per state, above SLA, queue depth. */

type Db = Kysely<EngineTables>;

interface StateCount {
  objectType: string;
  state: TaggedState;
  count: number;
  oldestEnteredAt: Date;
}

async function countObjectsByState(db: Db, objectTypes: readonly string[]): Promise<StateCount[]> {
  if (objectTypes.length === 0) return [];
  const { rows } = await sql<{ object_type: string; state: TaggedState; count: number; oldest: Date }>`
    SELECT object_type, state, count(*) AS count, min(state_entered_at) AS oldest
    FROM state_objects
    WHERE object_type IN (${sql.join(objectTypes.map((type) => sql`${type}`))})
    GROUP BY object_type, state`.execute(db);
  return rows.map((row) => ({
    objectType: row.object_type,
    state: row.state,
    count: row.count,
    oldestEnteredAt: row.oldest,
  }));
}

/** For each (type, state, threshold): how many objects entered that state before the threshold. */
async function countEnteredBefore(
  db: Db,
  thresholds: ReadonlyArray<{
    objectType: string;
    state: TaggedState;
    enteredBefore: Date;
    exempt: string[];
  }>,
): Promise<Array<{ objectType: string; state: TaggedState; count: number }>> {
  if (thresholds.length === 0) return [];
  // One JSON parameter instead of arrays: array parameters are serialised differently by pg and PGlite.
  const rows = JSON.stringify(
    thresholds.map((t) => ({
      object_type: t.objectType,
      state: t.state,
      entered_before: t.enteredBefore.toISOString(),
      exempt: t.exempt,
    })),
  );
  const result = await sql<{ object_type: string; state: TaggedState; count: number }>`
    SELECT s.object_type, s.state, count(o.object_id) AS count
    FROM jsonb_to_recordset(${rows}::jsonb) AS s(object_type text, state jsonb, entered_before timestamptz,
      exempt jsonb)
    JOIN state_objects o ON o.object_type = s.object_type AND o.state = s.state
      AND o.state_entered_at < s.entered_before AND NOT s.exempt ? o.object_id
    GROUP BY s.object_type, s.state`.execute(db);
  return result.rows.map((row) => ({ objectType: row.object_type, state: row.state, count: row.count }));
}

/** One sample for all the sampled gauges, per state label (several stored states can share a label). */
export async function sampleGauges(
  db: Db,
  machines: ReadonlyMap<string, StateMachine>,
  now: Date,
): Promise<GaugeSample> {
  const types = [...machines.keys()];
  const counts = await countObjectsByState(db, types);
  const exempt = new Map<string, string[]>();
  for (const [objectType, machine] of machines) {
    if (machine.slaExempt) exempt.set(objectType, [...(await machine.slaExempt(db))]);
  }
  // Only states whose oldest object is already past its SLA need counting.
  const thresholds = counts.flatMap((count) => {
    const machine = machines.get(count.objectType);
    const slaMs = machine ? stateSla(machine, count.state) : null;
    if (slaMs === null || now.getTime() - count.oldestEnteredAt.getTime() <= slaMs) return [];
    return [
      {
        objectType: count.objectType,
        state: count.state,
        enteredBefore: new Date(now.getTime() - slaMs),
        exempt: exempt.get(count.objectType) ?? [],
      },
    ];
  });
  const above = await countEnteredBefore(db, thresholds);
  const depths = await queueDepth(db, types, now);
  // A type with no queue rows at all reports zero rather than nothing.
  const queue = types.map(
    (objectType) => depths.find((d) => d.objectType === objectType) ?? { objectType, waiting: 0, claimed: 0 },
  );
  const byLabel = (rows: ReadonlyArray<{ objectType: string; state: TaggedState; count: number }>) => {
    const sums = new Map<string, { objectType: string; state: string; count: number }>();
    for (const row of rows) {
      const machine = machines.get(row.objectType);
      const label = machine ? stateLabel(machine, row.state) : row.state.state;
      const key = `${row.objectType}\u0000${label}`;
      const entry = sums.get(key) ?? { objectType: row.objectType, state: label, count: 0 };
      entry.count += row.count;
      sums.set(key, entry);
    }
    return [...sums.values()];
  };
  return { objects: byLabel(counts), aboveSla: byLabel(above), queue };
}
