import { InvalidArgumentError } from "@racksmith/core";
import { type Kysely, sql } from "kysely";
import type { Database } from "./database.js";
import {
  DatabaseNotMigratedError,
  DatabaseUnavailableError,
  describeCause,
  MigrationError,
} from "./errors.js";
import { MIGRATIONS, type Migration } from "./migrations/index.js";
import type { RacksmithDatabase } from "./schema.js";

export interface MigrateOptions {
  /** Defaults to every Racksmith migration; tests pass their own lists. */
  migrations?: readonly Migration[];
}

/**
 * Applies the pending migrations in order, each in its own transaction that first takes a transaction-level
 * advisory lock, so replicas starting together run each migration exactly once (the loser waits, then sees
 * it applied). Returns the names it applied.
 */
export async function migrate(
  database: Database,
  options: MigrateOptions = {},
): Promise<{ applied: string[] }> {
  const migrations = checkedList(options.migrations ?? MIGRATIONS);
  const done = new Set(await appliedNames(database));
  const applied: string[] = [];
  for (const migration of migrations) {
    if (done.has(migration.name)) continue;
    if (await applyOne(database, migration)) applied.push(migration.name);
  }
  return { applied };
}

/** What /readyz needs: which migrations the database has, and which of ours it lacks. */
export async function migrationStatus(
  database: Database,
  options: MigrateOptions = {},
): Promise<{ applied: string[]; pending: string[] }> {
  const applied = await appliedNames(database);
  const done = new Set(applied);
  const pending = (options.migrations ?? MIGRATIONS).map((m) => m.name).filter((name) => !done.has(name));
  return { applied, pending };
}

/** Throws DatabaseNotMigratedError when the database lacks one of our migrations (the engine's start check). */
export async function assertMigrated(database: Database, options: MigrateOptions = {}): Promise<void> {
  const { pending } = await migrationStatus(database, options);
  if (pending.length > 0) throw new DatabaseNotMigratedError(pending);
}

async function applyOne(database: Database, migration: Migration): Promise<boolean> {
  try {
    return await database.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`racksmith_migrate:${database.schema ?? ""}`}))`.execute(
        trx,
      );
      await sql`CREATE TABLE IF NOT EXISTS racksmith_migrations (
        name text PRIMARY KEY,
        applied_at timestamptz NOT NULL
      )`.execute(trx);
      const already = await trx
        .selectFrom("racksmith_migrations")
        .select("name")
        .where("name", "=", migration.name)
        .executeTakeFirst();
      if (already) return false;
      for (const statement of migration.statements) await sql.raw(statement).execute(trx);
      await trx
        .insertInto("racksmith_migrations")
        .values({ name: migration.name, applied_at: new Date() })
        .execute();
      return true;
    });
  } catch (error) {
    throw new MigrationError(migration.name, describeCause(error), { cause: error });
  }
}

async function appliedNames(database: Database): Promise<string[]> {
  const db: Kysely<RacksmithDatabase> = database.db;
  try {
    const { rows } = await sql<{ exists: boolean }>`
      SELECT to_regclass('racksmith_migrations') IS NOT NULL AS exists`.execute(db);
    if (!rows[0]?.exists) return [];
    const names = await db.selectFrom("racksmith_migrations").select("name").orderBy("name").execute();
    return names.map((row) => row.name);
  } catch (error) {
    throw new DatabaseUnavailableError(database.description, describeCause(error), { cause: error });
  }
}

function checkedList(migrations: readonly Migration[]): readonly Migration[] {
  const names = migrations.map((m) => m.name);
  const sorted = [...names].sort();
  if (new Set(names).size !== names.length || names.some((name, i) => name !== sorted[i])) {
    throw new InvalidArgumentError(
      `migrations must have unique names in sorted order, got ${names.join(", ")}`,
    );
  }
  return migrations;
}
