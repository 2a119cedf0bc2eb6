import { silentLogger } from "@racksmith/core";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DATABASE_URL, uniqueSchema } from "../testing/index.js";
import { type TableActivity, TableUpkeep, upkeepDue } from "./tableUpkeep.js";

const table = (liveRows: number, deadRows: number, changedSinceAnalyze: number): TableActivity => ({
  table: "t",
  liveRows,
  deadRows,
  changedSinceAnalyze,
});

describe("upkeepDue (autovacuum's default thresholds)", () => {
  it.each([
    { activity: table(0, 0, 0), expected: [] },
    { activity: table(0, 0, 50), expected: [] },
    { activity: table(0, 0, 51), expected: [{ table: "t", action: "analyze" }] },
    { activity: table(10_000, 0, 1_050), expected: [] },
    { activity: table(10_000, 0, 1_051), expected: [{ table: "t", action: "analyze" }] },
    { activity: table(10_000, 2_050, 0), expected: [] },
    { activity: table(10_000, 2_051, 0), expected: [{ table: "t", action: "vacuum" }] },
    // VACUUM (ANALYZE) refreshes the statistics too: one step, not two.
    { activity: table(100, 500, 500), expected: [{ table: "t", action: "vacuum" }] },
  ])("$activity → $expected", ({ activity, expected }) => {
    expect(upkeepDue([activity])).toEqual(expected);
  });
});

describe.skipIf(!TEST_DATABASE_URL)("TableUpkeep on PostgreSQL", () => {
  const schema = uniqueSchema("upkeep");
  let pool: pg.Pool;
  const upkeep = () => new TableUpkeep(pool, { intervalMs: 0, description: "test", logger: silentLogger });

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${schema}`, max: 3 });
    await pool.query(`CREATE SCHEMA ${schema}`);
    await pool.query("CREATE TABLE queue (id int PRIMARY KEY, due int NOT NULL)");
    await pool.query("CREATE INDEX queue_due ON queue (due)");
    await pool.query("CREATE TABLE quiet (id int PRIMARY KEY)");
  });
  afterAll(async () => {
    await pool.query(`DROP SCHEMA ${schema} CASCADE`);
    await pool.end();
  });

  /** Changes in one session, its statistics sent before the next statement's answer. */
  async function churn(statements: string[]): Promise<void> {
    const client = await pool.connect();
    try {
      for (const text of statements) await client.query(text);
      await client.query("SELECT pg_stat_force_next_flush()");
      await client.query("SELECT 1");
    } finally {
      client.release();
    }
  }

  const stats = async (name: string) =>
    (
      await pool.query<{ analyzed: boolean; vacuumed: boolean; dead: string }>(
        `SELECT last_analyze IS NOT NULL AS analyzed, last_vacuum IS NOT NULL AS vacuumed, n_dead_tup AS dead
         FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = $2`,
        [schema, name],
      )
    ).rows[0];

  it("analyzes a table that grew and vacuums one full of dead rows; leaves a quiet one alone", async () => {
    await churn(["INSERT INTO queue SELECT i, i FROM generate_series(1, 1000) i"]);
    expect(await upkeep().pass()).toEqual({ ran: true, steps: [{ table: "queue", action: "analyze" }] });
    expect(await stats("queue")).toMatchObject({ analyzed: true, vacuumed: false });

    await churn(["UPDATE queue SET due = due + 1", "UPDATE queue SET due = due + 1"]);
    expect(await upkeep().pass()).toEqual({ ran: true, steps: [{ table: "queue", action: "vacuum" }] });
    expect(await stats("queue")).toMatchObject({ vacuumed: true });
    expect(await stats("quiet")).toMatchObject({ analyzed: false, vacuumed: false });
  });

  it("leaves the pass to the process of the deployment that holds it", async () => {
    const holder = await pool.connect();
    try {
      await holder.query("SELECT pg_advisory_lock(hashtext('racksmith.tableUpkeep.' || current_schema()))");
      expect(await upkeep().pass()).toEqual({ ran: false, steps: [] });
    } finally {
      await holder.query("SELECT pg_advisory_unlock_all()");
      holder.release();
    }
    expect((await upkeep().pass()).ran).toBe(true);
  });

  it("starts only when the server's autovacuum is off", async () => {
    const { rows } = await pool.query<{ autovacuum: string }>("SHOW autovacuum");
    const runner = new TableUpkeep(pool, { intervalMs: 60_000, description: "test", logger: silentLogger });
    expect(await runner.start()).toBe(rows[0]?.autovacuum === "off");
    await runner.stop();
    expect(await upkeep().start()).toBe(false);
  });
});
