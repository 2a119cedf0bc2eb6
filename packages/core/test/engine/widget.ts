import { type ColumnType, type Kysely, sql } from "kysely";
import type { EngineDatabase as Database, EngineTables } from "../../src/state/index.js";
import {
  defineStateMachine,
  deleted,
  doNothing,
  type HandlerContext,
  type StateMachine,
  transition,
  wait,
} from "../../src/state/index.js";

/**
 * The demo machine of the engine tests: a widget goes new → assembling → (polishing × n) → done, waits in
 * assembling until its parts are ready, and is scrapped (deleted) from done when asked. Its own row lives in
 * the test-only `widgets` table; `assembled` and `writes` are set by deferred writes.
 */
export type WidgetState =
  | { state: "new" }
  | { state: "assembling" }
  | { state: "polishing"; round: number }
  | { state: "done" };

export interface Widget {
  id: string;
  partsReady: boolean;
  polishRounds: number;
  scrap: boolean;
  assembled: boolean;
  writes: number;
  /** Its wait for parts asks to be looked at again after this long (ms); null: the engine's default. */
  recheckMs: number | null;
}

type Defaulted<T> = ColumnType<T, T | undefined, T>;

interface WidgetsTable {
  id: string;
  parts_ready: Defaulted<boolean>;
  polish_rounds: Defaulted<number>;
  scrap: Defaulted<boolean>;
  assembled: Defaulted<boolean>;
  writes: Defaulted<number>;
  recheck_ms: ColumnType<number | null, number | null | undefined, number | null>;
}

type WidgetRow = {
  id: string;
  parts_ready: boolean;
  polish_rounds: number;
  scrap: boolean;
  assembled: boolean;
  writes: number;
  recheck_ms: number | null;
};

export type WidgetDb = Kysely<EngineTables & { widgets: WidgetsTable }>;

export const widgetDb = (db: Kysely<EngineTables>): WidgetDb => db.withTables<{ widgets: WidgetsTable }>();

export async function createWidgetsTable(database: Database): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS widgets (
    id text PRIMARY KEY,
    parts_ready boolean NOT NULL DEFAULT true,
    polish_rounds integer NOT NULL DEFAULT 0,
    scrap boolean NOT NULL DEFAULT false,
    assembled boolean NOT NULL DEFAULT false,
    writes integer NOT NULL DEFAULT 0,
    recheck_ms integer
  )`.execute(database.db);
}

export async function insertWidget(
  database: Database,
  id: string,
  fields: Partial<Omit<WidgetRow, "id">> = {},
): Promise<void> {
  await widgetDb(database.db)
    .insertInto("widgets")
    .values({ id, ...fields })
    .execute();
}

export async function readWidget(database: Database, id: string): Promise<WidgetRow | undefined> {
  return widgetDb(database.db).selectFrom("widgets").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Called at the start of every handler run; tests use it to block, record, throw or defer extra writes. */
export type WidgetHook = (input: {
  id: string;
  state: WidgetState;
  widget: Widget;
  context: HandlerContext<WidgetState>;
}) => Promise<void> | void;

export function widgetMachine(options: {
  objectType: string;
  hook?: WidgetHook;
  sla?: Partial<Record<WidgetState["state"], number>>;
  /** Passed through; each load tells `onLoad` whether it ran in a transaction. */
  loadsInOneStatement?: boolean;
  onLoad?: (inTransaction: boolean) => void;
}): StateMachine<WidgetState, Widget> {
  const hook: WidgetHook = (input) => options.hook?.(input);
  const countWrite = (context: HandlerContext<WidgetState>) =>
    context.defer(async (trx) => {
      await widgetDb(trx)
        .updateTable("widgets")
        .set((eb) => ({ writes: eb("writes", "+", 1) }))
        .where("id", "=", context.id)
        .execute();
    });
  return defineStateMachine<WidgetState, Widget>({
    objectType: options.objectType,
    ...(options.loadsInOneStatement ? { loadsInOneStatement: true } : {}),
    async load(id, db) {
      options.onLoad?.(db.isTransaction);
      const row = await widgetDb(db)
        .selectFrom("widgets")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return (
        row && {
          id: row.id,
          partsReady: row.parts_ready,
          polishRounds: row.polish_rounds,
          scrap: row.scrap,
          assembled: row.assembled,
          writes: row.writes,
          recheckMs: row.recheck_ms,
        }
      );
    },
    sla: options.sla,
    stateLabel: (state) => (state.state === "polishing" ? `polishing/${state.round}` : state.state),
    handlers: {
      new: async ({ id, state, object, context }) => {
        await hook({ id, state, widget: object, context });
        countWrite(context);
        return transition({ state: "assembling" });
      },
      assembling: async ({ id, state, object, context }) => {
        await hook({ id, state, widget: object, context });
        if (!object.partsReady)
          return wait(
            "parts not ready",
            object.recheckMs === null ? {} : { recheckAfterMs: object.recheckMs },
          );
        context.defer(async (trx) => {
          await widgetDb(trx).updateTable("widgets").set({ assembled: true }).where("id", "=", id).execute();
        });
        return transition(object.polishRounds > 0 ? { state: "polishing", round: 1 } : { state: "done" });
      },
      polishing: async ({ id, state, object, context }) => {
        await hook({ id, state, widget: object, context });
        return transition(
          state.round < object.polishRounds
            ? { state: "polishing", round: state.round + 1 }
            : { state: "done" },
        );
      },
      done: async ({ id, state, object, context }) => {
        await hook({ id, state, widget: object, context });
        return object.scrap ? deleted() : doNothing();
      },
    },
  });
}
