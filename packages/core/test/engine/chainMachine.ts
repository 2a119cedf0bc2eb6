import { sql } from "kysely";
import type { EngineDatabase as Database } from "../../src/state/index.js";
import { doNothing, type StateMachine, transition } from "../../src/state/index.js";

/**
 * A K-step chain (s0 → s1 → … → sK, which does nothing) whose handlers record their start and end in
 * `handler_events`. Events are numbered by one database sequence, so their order is the real order across
 * processes: two runs of one object overlap exactly when a start follows a start.
 */
export type ChainState = { state: string };

export const CHAIN_TYPE = "chain";

export async function createEventsTable(database: Database): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS handler_events (
    seq bigserial PRIMARY KEY,
    object_id text NOT NULL,
    state text NOT NULL,
    kind text NOT NULL,
    worker text NOT NULL,
    at_ms double precision NOT NULL
  )`.execute(database.db);
}

export function chainMachine(options: {
  database: Database;
  steps: number;
  worker: string;
  /** Extra time spent in the handler of this state (to be killed in the middle of it). */
  slowState?: string;
  slowMs?: number;
}): StateMachine<ChainState, true> {
  const record = (id: string, state: string, kind: "start" | "end") =>
    sql`INSERT INTO handler_events (object_id, state, kind, worker, at_ms)
      VALUES (${id}, ${state}, ${kind}, ${options.worker}, ${Date.now()})`.execute(options.database.db);
  return {
    objectType: CHAIN_TYPE,
    load: async () => true,
    async handle({ id, state }) {
      const step = Number(state.state.slice(1));
      if (step >= options.steps) return doNothing();
      await record(id, state.state, "start");
      const pause = state.state === options.slowState ? (options.slowMs ?? 0) : Math.random() * 5;
      await new Promise((resolve) => setTimeout(resolve, pause));
      await record(id, state.state, "end");
      return transition({ state: `s${step + 1}` });
    },
  };
}
