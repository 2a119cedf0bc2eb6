import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  sql,
  type TransactionSettings,
} from "kysely";
import { describe, expect, it } from "vitest";
import { latch, TEST_DATABASE_URL, uniqueSchema, waitFor } from "../testing/index.js";
import { DeferredSnapshotDriver } from "./deferredSnapshots.js";
import { openDatabase } from "./index.js";
import { PreparedStatementNames } from "./preparedStatements.js";

describe("PreparedStatementNames", () => {
  it.each([
    { uses: ["a"], names: [undefined] },
    { uses: ["a", "a", "a"], names: [undefined, "racksmith_0", "racksmith_0"] },
    { uses: ["a", "b", "b", "a"], names: [undefined, undefined, "racksmith_0", "racksmith_1"] },
  ])("names a text from its second use: $uses", ({ uses, names }) => {
    const prepared = new PreparedStatementNames();
    expect(uses.map((text) => prepared.nameFor(text))).toEqual(names);
  });

  it("stops naming new texts at its cap, and keeps the names it gave", () => {
    const prepared = new PreparedStatementNames({ maxNames: 2, hotAfter: 1, maxTracked: 10 });
    expect(["a", "b", "c", "a", "c"].map((text) => prepared.nameFor(text))).toEqual([
      "racksmith_0",
      "racksmith_1",
      undefined,
      "racksmith_0",
      undefined,
    ]);
  });

  it("forgets one-off texts once it tracks too many", () => {
    const prepared = new PreparedStatementNames({ maxNames: 10, hotAfter: 2, maxTracked: 2 });
    for (const text of ["a", "b", "c"]) prepared.nameFor(text);
    // "a" was forgotten when "c" arrived: its next use is a first use again.
    expect(prepared.nameFor("a")).toBeUndefined();
    expect(prepared.nameFor("c")).toBe("racksmith_0");
  });
});

/** A driver that records what reaches the database. */
class RecordingDriver implements Driver {
  readonly sent: string[] = [];
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const sent = this.sent;
    return {
      async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        sent.push(query.sql);
        return { rows: [] };
      },
      // biome-ignore lint/correctness/useYield: never streamed in these tests.
      async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
        throw new Error("no streaming");
      },
    };
  }
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`begin ${settings.accessMode ?? ""}`.trim()));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

function deferringDb(): { db: Kysely<unknown>; sent: string[] } {
  const recording = new RecordingDriver();
  const db = new Kysely<unknown>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DeferredSnapshotDriver(recording),
      createQueryCompiler: () => new PostgresQueryCompiler(),
      createIntrospector: (kysely) => new PostgresIntrospector(kysely),
    },
  });
  return { db, sent: recording.sent };
}

describe("DeferredSnapshotDriver", () => {
  const snapshot = (db: Kysely<unknown>) =>
    db.transaction().setIsolationLevel("repeatable read").setAccessMode("read only");

  it("sends nothing for a read-only transaction that runs no statement", async () => {
    const { db, sent } = deferringDb();
    expect(await snapshot(db).execute(async () => "loaded")).toBe("loaded");
    expect(sent).toEqual([]);
  });

  it("begins a read-only transaction just before its first statement, and commits it", async () => {
    const { db, sent } = deferringDb();
    await snapshot(db).execute(async (trx) => {
      await sql`SELECT 1`.execute(trx);
      await sql`SELECT 2`.execute(trx);
    });
    expect(sent).toEqual([
      "start transaction isolation level repeatable read read only",
      "SELECT 1",
      "SELECT 2",
      "commit",
    ]);
  });

  it("rolls back a read-only transaction that failed after its first statement, and only then", async () => {
    const { db, sent } = deferringDb();
    await expect(
      snapshot(db).execute(async () => {
        throw new Error("load failed");
      }),
    ).rejects.toThrow("load failed");
    expect(sent).toEqual([]);
    await expect(
      snapshot(db).execute(async (trx) => {
        await sql`SELECT 1`.execute(trx);
        throw new Error("load failed");
      }),
    ).rejects.toThrow("load failed");
    expect(sent).toEqual([
      "start transaction isolation level repeatable read read only",
      "SELECT 1",
      "rollback",
    ]);
  });

  it("begins every other transaction at once", async () => {
    const { db, sent } = deferringDb();
    await db.transaction().execute(async () => undefined);
    expect(sent).toEqual(["begin", "commit"]);
  });
});

describe("statements on PostgreSQL", () => {
  it.skipIf(!TEST_DATABASE_URL)(
    "prepares a statement it sees again (unless told not to), and a deferred snapshot still reads one snapshot",
    async () => {
      const schema = uniqueSchema("prepared");
      const database = await openDatabase({ url: TEST_DATABASE_URL as string, schema, poolSize: 1 });
      try {
        const db = database.db as unknown as Kysely<unknown>;
        await sql`CREATE TABLE items (id integer)`.execute(db);
        const count = () => sql<{ n: number }>`SELECT count(*)::int AS n FROM items`.execute(db);
        await count();
        await count();
        const { rows } = await sql<{ statement: string }>`
          SELECT statement FROM pg_prepared_statements WHERE name LIKE 'racksmith_%'`.execute(db);
        expect(rows.map((row) => row.statement)).toContain("SELECT count(*)::int AS n FROM items");

        // The other connection's insert lands between the snapshot's two reads; the second must not see it.
        const other = await openDatabase({ url: TEST_DATABASE_URL as string, schema, poolSize: 1 });
        try {
          const seen = await db
            .transaction()
            .setIsolationLevel("repeatable read")
            .setAccessMode("read only")
            .execute(async (trx) => {
              const before = await sql<{ n: number }>`SELECT count(*)::int AS n FROM items`.execute(trx);
              await sql`INSERT INTO items VALUES (1)`.execute(other.db as unknown as Kysely<unknown>);
              const after = await sql<{ n: number }>`SELECT count(*)::int AS n FROM items`.execute(trx);
              return [before.rows[0]?.n, after.rows[0]?.n];
            });
          expect(seen).toEqual([0, 0]);
          expect((await count()).rows[0]?.n).toBe(1);
        } finally {
          await other.close();
        }

        // Turned off (a pooler without prepared statements): nothing is prepared, however often it runs.
        const unprepared = await openDatabase({
          url: TEST_DATABASE_URL as string,
          schema,
          poolSize: 1,
          preparedStatements: false,
        });
        try {
          const udb = unprepared.db as unknown as Kysely<unknown>;
          for (let i = 0; i < 3; i++) await sql`SELECT count(*)::int AS n FROM items`.execute(udb);
          const named = await sql<{ n: number }>`
            SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'racksmith_%'`.execute(udb);
          expect(named.rows[0]?.n).toBe(0);
        } finally {
          await unprepared.close();
        }
      } finally {
        await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(database.db);
        await database.close();
      }
    },
  );

  it.skipIf(!TEST_DATABASE_URL)(
    "holds database.poolSize connections, and counts what waits for one of them",
    async () => {
      const schema = uniqueSchema("pool");
      const database = await openDatabase({ url: TEST_DATABASE_URL as string, schema, poolSize: 2 });
      try {
        const connections = () => database.connections?.();
        const release = latch();
        const entered = [latch(), latch()];
        const held = entered.map((inside) =>
          database.db.transaction().execute(async (trx) => {
            await sql`SELECT 1`.execute(trx);
            inside.open();
            await release.promise;
          }),
        );
        await Promise.all(entered.map((inside) => inside.promise));
        const third = sql<{ n: number }>`SELECT 3 AS n`.execute(database.db);
        await waitFor(() => connections()?.waiting === 1);
        expect(connections()).toEqual({ max: 2, open: 2, idle: 0, waiting: 1 });
        release.open();
        await Promise.all(held);
        expect((await third).rows[0]?.n).toBe(3);
        expect(connections()).toEqual({ max: 2, open: 2, idle: 2, waiting: 0 });
      } finally {
        await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(database.db);
        await database.close();
      }
    },
  );
});
