import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StateEngine } from "@racksmith/core/engine";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  latch,
  openTestDatabase,
  TEST_DATABASE_URL,
  type TestDatabase,
  uniqueSchema,
  waitFor,
} from "../testing/index.js";
import {
  assertMigrated,
  type Database,
  DatabaseUnavailableError,
  MIGRATIONS,
  type Migration,
  migrate,
  migrationStatus,
  openDatabase,
} from "./index.js";

let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await openTestDatabase("db", { migrated: false });
});
afterAll(async () => {
  await testDb?.close();
});

const ALL = MIGRATIONS.map((m) => m.name);

describe("migrations", () => {
  it("applies every migration once, records it, and reports status for /readyz", async () => {
    const { database } = testDb;
    expect(await migrationStatus(database)).toEqual({ applied: [], pending: ALL });
    // The service gives the engine this check: it refuses a database with pending migrations.
    const engine = new StateEngine({ database, machines: [], checkDatabase: () => assertMigrated(database) });
    await expect(engine.start()).rejects.toMatchObject({
      code: "database_not_migrated",
    });

    expect(await migrate(database)).toEqual({ applied: ALL });
    expect(await migrate(database)).toEqual({ applied: [] });
    expect(await migrationStatus(database)).toEqual({ applied: ALL, pending: [] });
  });

  it("runs each migration exactly once when replicas migrate at the same time", async () => {
    const extra: Migration[] = [
      ...MIGRATIONS,
      {
        name: "9001_counter",
        statements: ["CREATE TABLE migration_runs (n integer)", "INSERT INTO migration_runs VALUES (1)"],
      },
    ];
    // On PostgreSQL the second "replica" is a separate pool on the same schema.
    const other = TEST_DATABASE_URL
      ? await openDatabase({ url: TEST_DATABASE_URL, schema: testDb.schema })
      : testDb.database;
    try {
      const results = await Promise.all([
        migrate(testDb.database, { migrations: extra }),
        migrate(other, { migrations: extra }),
        migrate(testDb.database, { migrations: extra }),
      ]);
      expect(results.flatMap((r) => r.applied)).toEqual(["9001_counter"]);
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM migration_runs`.execute(
        testDb.database.db,
      );
      expect(rows[0]?.n).toBe(1);
    } finally {
      if (other !== testDb.database) await other.close();
    }
  });

  it("reports a failed migration by name and applies none of it", async () => {
    const broken: Migration[] = [
      ...MIGRATIONS,
      {
        name: "9002_broken",
        statements: ["CREATE TABLE half_done (n integer)", "SELECT * FROM no_such_table"],
      },
    ];
    const failure = await migrate(testDb.database, { migrations: broken }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "migration_failed", migration: "9002_broken" });
    expect(String((failure as Error).message)).toMatch(/^migration 9002_broken failed: .*no_such_table/);
    const { rows } = await sql<{ present: boolean }>`
      SELECT to_regclass('half_done') IS NOT NULL AS present`.execute(testDb.database.db);
    expect(rows[0]?.present).toBe(false);
    expect((await migrationStatus(testDb.database, { migrations: broken })).pending).toEqual(["9002_broken"]);
  });

  it("refuses migration lists that are not uniquely named in order", async () => {
    const [first] = MIGRATIONS;
    if (!first) throw new Error("no migrations");
    await expect(migrate(testDb.database, { migrations: [first, first] })).rejects.toMatchObject({
      code: "invalid_argument",
    });
  });
});

describe("database", () => {
  it("delivers NOTIFY to listeners until they stop listening", async () => {
    const { database } = testDb;
    const received: string[] = [];
    const markers: string[] = [];
    const stop = await database.listen("racksmith_test_channel", (payload) => received.push(payload));
    const stopMarkers = await database.listen("racksmith_test_marker", (payload) => markers.push(payload));
    await database.notify("racksmith_test_channel", "one");
    await waitFor(() => received.length === 1, {
      what: "the notification",
      timeoutMs: Number.POSITIVE_INFINITY,
    });
    await stop();
    await database.notify("racksmith_test_channel", "two");
    // Sent after "two" and heard on the same connection: once it is in, "two" would have been too.
    await database.notify("racksmith_test_marker", "after two");
    await waitFor(() => markers.length === 1, {
      what: "the marker notification",
      timeoutMs: Number.POSITIVE_INFINITY,
    });
    await stopMarkers();
    expect(received).toEqual(["one"]);
  });

  it("delivers a NOTIFY sent inside a transaction only when it commits", async () => {
    const { database } = testDb;
    const received: string[] = [];
    const stop = await database.listen("racksmith_test_trx", (payload) => received.push(payload));
    await database.db
      .transaction()
      .execute(async (trx) => {
        await sql`SELECT pg_notify('racksmith_test_trx', 'rolled back')`.execute(trx);
        throw new Error("roll back");
      })
      .catch(() => undefined);
    await database.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_notify('racksmith_test_trx', 'committed')`.execute(trx);
    });
    await waitFor(() => received.length > 0, {
      what: "the notification",
      timeoutMs: Number.POSITIVE_INFINITY,
    });
    await stop();
    expect(received).toEqual(["committed"]);
  });

  it.skipIf(!TEST_DATABASE_URL)("listens again after its PostgreSQL connection is killed", async () => {
    const { database } = testDb;
    const channel = `racksmith_reconnect_${testDb.schema}`;
    const received: string[] = [];
    const stop = await database.listen(channel, (payload) => received.push(payload));
    try {
      const { rows } = await sql<{ killed: boolean }>`
        SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity
        WHERE query = ${`LISTEN "${channel}"`}`.execute(database.db);
      expect(rows.map((row) => row.killed)).toEqual([true]);
      // Notifications sent while it is down are lost (the engine polls for that); later ones arrive.
      await waitFor(
        async () => {
          await database.notify(channel, "after");
          return received.includes("after");
        },
        { what: "a notification after the reconnect", timeoutMs: Number.POSITIVE_INFINITY },
      );
    } finally {
      await stop();
    }
  });

  it.skipIf(!TEST_DATABASE_URL)(
    "survives its connection being terminated mid-transaction: database_unavailable, then a fresh connection",
    async () => {
      const { database } = testDb;
      const lost = database.db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx);
        // Another pooled connection kills this one while it sits idle in its transaction: pg emits `error`
        // on the checked-out client, which would kill the process without a listener.
        await sql`SELECT pg_terminate_backend(${rows[0]?.pid}::int)`.execute(database.db);
        await sql`SELECT 1`.execute(trx);
      });
      await expect(lost).rejects.toMatchObject({ code: "database_unavailable", status: "UNAVAILABLE" });
      await expect(lost).rejects.toBeInstanceOf(DatabaseUnavailableError);
      // The broken client left the pool: the next statements get a working connection.
      for (let i = 0; i < 12; i++) {
        const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(database.db);
        expect(rows).toEqual([{ one: 1 }]);
      }
    },
  );

  it("reads bigint columns as numbers on both dialects", async () => {
    const { rows } = await sql<{ big: number; n: number }>`
      SELECT 9007199254740991::bigint AS big, count(*) AS n FROM (VALUES (1), (2)) AS v(x)`.execute(
      testDb.database.db,
    );
    expect(rows[0]).toEqual({ big: Number.MAX_SAFE_INTEGER, n: 2 });
  });

  it("keeps a transaction's statements together (nothing interleaves on PGlite's single connection)", async () => {
    const { db } = testDb.database;
    await sql`CREATE TABLE IF NOT EXISTS interleave (n integer)`.execute(db);
    const order: string[] = [];
    const inserted = latch();
    const finish = latch();
    const inTransaction = db.transaction().execute(async (trx) => {
      await sql`INSERT INTO interleave VALUES (1)`.execute(trx);
      order.push("inserted");
      inserted.open();
      // Held open until the test has started its outside read.
      await finish.promise;
      await sql`INSERT INTO interleave VALUES (2)`.execute(trx);
      order.push("committing");
    });
    await inserted.promise;
    const outside = sql<{ n: number }>`SELECT count(*) AS n FROM interleave`
      .execute(db)
      .then(({ rows }) => void order.push(`outside saw ${rows[0]?.n}`));
    if (testDb.database.kind === "pglite") {
      // Everything the read could do without the connection happens now (no I/O is involved): it is parked.
      await new Promise((resolve) => setImmediate(resolve));
      expect(order).toEqual(["inserted"]);
    } else {
      await outside;
    }
    finish.open();
    await Promise.all([inTransaction, outside]);
    // PGlite: the outside read waits for the commit; PostgreSQL: it runs at once and sees nothing yet.
    expect(order).toEqual(
      testDb.database.kind === "pglite"
        ? ["inserted", "committing", "outside saw 2"]
        : ["inserted", "outside saw 0", "committing"],
    );
  });
});

describe("openDatabase", () => {
  it("fails with one clear line naming the URL (password redacted) and the cause", async () => {
    const failure = await openDatabase({ url: "postgres://racksmith:hunter2@127.0.0.1:1/racksmith" }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DatabaseUnavailableError);
    const message = (failure as Error).message;
    expect(message).toMatch(/^cannot connect to postgres:\/\/.*127\.0\.0\.1:1\/racksmith: ECONNREFUSED$/);
    expect(message).not.toContain("hunter2");
    expect(JSON.stringify(failure)).not.toContain("hunter2");
    expect(failure).toMatchObject({ code: "database_unavailable", status: "UNAVAILABLE" });
  });

  it("rejects a schema name that is not a plain identifier", async () => {
    await expect(openDatabase({ inMemory: true, schema: "x; DROP TABLE y" })).rejects.toMatchObject({
      code: "invalid_argument",
    });
  });

  describe("in a dataDir", () => {
    let dir: string;
    let dataDir: string;
    let first: Database;
    // Creating a new cluster on disk is the slow part on a busy machine: it runs in a hook (their timeout is
    // longer), and the test's own time goes to what it checks.
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), "racksmith-db-"));
      dataDir = join(dir, "nested", "data");
      first = await openDatabase({ dataDir });
    });
    afterAll(async () => {
      await first?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it("keeps embedded data in dataDir across restarts, and says where it is", async () => {
      expect(first.kind).toBe("pglite");
      expect(first.description).toBe(`embedded PGlite at ${dataDir}`);
      // What the API shows (/readyz, version) names no path.
      expect(first.label).toBe("embedded PGlite (data directory)");
      await migrate(first);
      await first.close();
      const second = await openDatabase({ dataDir });
      expect((await migrationStatus(second)).pending).toEqual([]);
      await second.close();

      const file = join(dir, "a-file");
      await writeFile(file, "not a directory");
      await expect(openDatabase({ dataDir: join(file, "data") })).rejects.toMatchObject({
        code: "database_unavailable",
        message: expect.stringContaining(`cannot connect to embedded PGlite at ${join(file, "data")}`),
      });
    });
  });

  it.skipIf(!TEST_DATABASE_URL)(
    "describes PostgreSQL by its URL without the password, in its schema",
    async () => {
      const url = new URL(TEST_DATABASE_URL ?? "");
      url.password = "not-shown";
      const schema = uniqueSchema("open");
      const database: Database = await openDatabase({ url: url.toString(), schema });
      try {
        expect(database.kind).toBe("postgres");
        expect(database.description).not.toContain("not-shown");
        const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(
          database.db,
        );
        expect(rows[0]?.schema).toBe(schema);
      } finally {
        await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(database.db);
        await database.close();
      }
    },
  );
});
