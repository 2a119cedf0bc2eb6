import { doNothing, type StateMachine, transition } from "@racksmith/core/engine";
import type { Database } from "@racksmith/server";
import { sql } from "kysely";

export const BENCH_TYPE = "bench_chain";

/** One handler event; `seq` orders events across processes (a database sequence) or in one (a counter). */
export interface HandlerEvent {
  seq: number;
  objectId: string;
  state: number;
  kind: "start" | "end";
  atMs: number;
}

/** Where handlers report their start and end. */
export interface Recorder {
  record(objectId: string, state: number, kind: "start" | "end"): Promise<void> | void;
  events(): Promise<HandlerEvent[]>;
  /** When the first handler of this object started, once it has. */
  firstStart(objectId: string): Promise<number | undefined>;
}

/** Wall-clock ms with sub-ms resolution, comparable across processes on one machine. */
export const nowMs = (): number => performance.timeOrigin + performance.now();

/** In one process: exact and free. */
export class MemoryRecorder implements Recorder {
  private readonly log: HandlerEvent[] = [];
  record(objectId: string, state: number, kind: "start" | "end"): void {
    this.log.push({ seq: this.log.length, objectId, state, kind, atMs: nowMs() });
  }
  async events(): Promise<HandlerEvent[]> {
    return this.log;
  }
  async firstStart(objectId: string): Promise<number | undefined> {
    return this.log.find((e) => e.objectId === objectId && e.kind === "start")?.atMs;
  }
}

/** Across processes: one row per event, ordered by a database sequence. */
export class DatabaseRecorder implements Recorder {
  constructor(private readonly database: Database) {}

  static async createTable(database: Database): Promise<void> {
    await sql`CREATE TABLE IF NOT EXISTS bench_events (
      seq bigserial PRIMARY KEY, object_id text NOT NULL, state integer NOT NULL, kind text NOT NULL,
      at_ms double precision NOT NULL
    )`.execute(database.db);
  }

  async record(objectId: string, state: number, kind: "start" | "end"): Promise<void> {
    await sql`INSERT INTO bench_events (object_id, state, kind, at_ms)
      VALUES (${objectId}, ${state}, ${kind}, ${nowMs()})`.execute(this.database.db);
  }

  async events(): Promise<HandlerEvent[]> {
    const { rows } = await sql<{
      seq: number;
      object_id: string;
      state: number;
      kind: "start" | "end";
      at_ms: number;
    }>`
      SELECT seq, object_id, state, kind, at_ms FROM bench_events ORDER BY seq`.execute(this.database.db);
    return rows.map((r) => ({
      seq: r.seq,
      objectId: r.object_id,
      state: r.state,
      kind: r.kind,
      atMs: r.at_ms,
    }));
  }

  async firstStart(objectId: string): Promise<number | undefined> {
    const { rows } = await sql<{ at_ms: number }>`
      SELECT min(at_ms) AS at_ms FROM bench_events WHERE object_id = ${objectId} AND kind = 'start'`.execute(
      this.database.db,
    );
    return rows[0]?.at_ms ?? undefined;
  }
}

/** s0 → s1 → … → s{states-1}; handlers do no work of their own, so the figures are the engine's. */
export function benchChain(states: number, recorder: Recorder): StateMachine<{ state: string }, true> {
  return {
    objectType: BENCH_TYPE,
    load: async () => true,
    async handle({ id, state }) {
      const step = Number(state.state.slice(1));
      await recorder.record(id, step, "start");
      await recorder.record(id, step, "end");
      return step + 1 < states ? transition({ state: `s${step + 1}` }) : doNothing();
    },
  };
}
