import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { type Database, migrate, openDatabase } from "../db/index.js";

/** Set by CI (and locally): run database tests on this PostgreSQL too, else on in-memory PGlite. */
export const TEST_DATABASE_URL = process.env.RACKSMITH_TEST_DATABASE_URL || undefined;

export interface TestDatabase {
  database: Database;
  /** The PostgreSQL schema of this test file (undefined on PGlite). */
  schema: string | undefined;
  close(): Promise<void>;
}

/** A fresh schema on PostgreSQL (so test files never collide) or an in-memory PGlite. */
export function uniqueSchema(prefix: string): string {
  return `t_${prefix}_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
}

/** One database per test file, migrated unless told otherwise; `close` drops the schema. */
export async function openTestDatabase(
  prefix: string,
  options: { migrated?: boolean } = {},
): Promise<TestDatabase> {
  const schema = TEST_DATABASE_URL ? uniqueSchema(prefix) : undefined;
  const database = await openDatabase(
    TEST_DATABASE_URL ? { url: TEST_DATABASE_URL, schema } : { inMemory: true },
  );
  if (options.migrated !== false) await migrate(database);
  return {
    database,
    schema,
    close: async () => {
      if (schema) await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(database.db);
      await database.close();
    },
  };
}
