import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../database.js";
import { openPglite } from "../pglite.js";
import { PgliteThread } from "./pgliteThread.js";

describe("PgliteThread (the embedded database on its own thread)", () => {
  let thread: PgliteThread;
  beforeAll(async () => {
    thread = await PgliteThread.open(undefined, "thread_test");
  });
  afterAll(async () => {
    await thread?.close();
  });

  it("answers queries with rows, affected rows, dates and int8 as numbers, in the schema it was opened with", async () => {
    await thread.query("CREATE TABLE t (id int8 PRIMARY KEY, at timestamptz, doc jsonb)", []);
    const inserted = await thread.query("INSERT INTO t VALUES ($1, $2, $3), (2, now(), null)", [
      1,
      new Date("2026-01-01T00:00:00Z"),
      JSON.stringify({ a: [1, 2] }),
    ]);
    expect(inserted.affectedRows).toBe(2);
    const { rows } = await thread.query<{ id: number; at: Date; doc: unknown; schema: string }>(
      "SELECT id, at, doc, current_schema() AS schema FROM t WHERE id = $1",
      [1],
    );
    expect(rows).toEqual([
      { id: 1, at: new Date("2026-01-01T00:00:00Z"), doc: { a: [1, 2] }, schema: "thread_test" },
    ]);
  });

  it("fails a bad statement with PostgreSQL's code and message, and keeps serving", async () => {
    await expect(thread.query("INSERT INTO t (id) VALUES (1)", [])).rejects.toMatchObject({
      code: "23505",
      message: expect.stringContaining("duplicate key"),
    });
    await expect(thread.query("SELECT * FROM missing_table", [])).rejects.toMatchObject({ code: "42P01" });
    expect((await thread.query("SELECT 1 AS one", [])).rows).toEqual([{ one: 1 }]);
  });

  it("delivers notifications to listeners until they stop", async () => {
    const heard: string[] = [];
    const stop = await thread.listen("news", (payload) => heard.push(payload));
    await thread.query("SELECT pg_notify('news', 'first')", []);
    await stop();
    await thread.query("SELECT pg_notify('news', 'second')", []);
    expect(heard).toEqual(["first"]);
  });

  it("refuses calls once closed, naming why", async () => {
    const other = await PgliteThread.open(undefined, undefined);
    await other.close();
    expect(other.closed).toBe(true);
    await expect(other.query("SELECT 1", [])).rejects.toThrow("the embedded database is closed");
  });
});

describe("the PGlite dialect", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openPglite({ dataDir: undefined, schema: undefined });
  });
  afterAll(async () => {
    await database?.close();
  });

  it("reads a read-only transaction under the lock alone, and rolls a failed write transaction back", async () => {
    const { db } = database;
    await sql`CREATE TABLE n (v int)`.execute(db);
    await sql`INSERT INTO n VALUES (1)`.execute(db);
    const read = await db
      .transaction()
      .setAccessMode("read only")
      .execute(async (trx) => (await sql<{ v: number }>`SELECT v FROM n`.execute(trx)).rows);
    expect(read).toEqual([{ v: 1 }]);
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`INSERT INTO n VALUES (2)`.execute(trx);
        throw new Error("abandon");
      }),
    ).rejects.toThrow("abandon");
    expect((await sql<{ v: number }>`SELECT v FROM n ORDER BY v`.execute(db)).rows).toEqual([{ v: 1 }]);
    expect(database.statements().statements).toBeGreaterThanOrEqual(6);
  });

  it("keeps a statement sent during someone else's transaction out of it", async () => {
    const { db } = database;
    await sql`CREATE TABLE m (v int)`.execute(db);
    let outside: Promise<unknown> | undefined;
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`INSERT INTO m VALUES (1)`.execute(trx);
        outside = sql`INSERT INTO m VALUES (2)`.execute(db);
        await sql`INSERT INTO m VALUES (3)`.execute(trx);
        throw new Error("abandon");
      }),
    ).rejects.toThrow("abandon");
    await outside;
    expect((await sql<{ v: number }>`SELECT v FROM m ORDER BY v`.execute(db)).rows).toEqual([{ v: 2 }]);
  });
});
