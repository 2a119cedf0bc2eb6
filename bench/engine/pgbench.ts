/**
 * PostgreSQL's own simple-update rate on the same server, for comparison: `pgbench -N` (no branch/teller
 * updates) with a few clients, in a schema of its own that is dropped afterwards.
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { openDatabase } from "@racksmith/server";
import { sql } from "kysely";

const run = promisify(execFile);

export interface PgbenchResult {
  tps: number;
  clients: number;
  seconds: number;
}

/** Why pgbench cannot run here (not installed), or undefined when it can. */
export async function pgbenchMissing(): Promise<string | undefined> {
  try {
    await run("pgbench", ["--version"]);
    return undefined;
  } catch {
    return "pgbench is not installed (Debian: postgresql-client)";
  }
}

/** Runs `pgbench -N` against `url` for `seconds` with `clients` clients; resolves to its TPS. */
export async function runPgbench(url: string, clients: number, seconds: number): Promise<PgbenchResult> {
  const schema = `pgbench_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const database = await openDatabase({ url });
  await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(database.db);
  // pgbench has no schema option: the search path, set for its connections only, puts its tables there.
  const env = { ...process.env, PGOPTIONS: `-c search_path=${schema}` };
  try {
    await run("pgbench", ["-i", "-q", "-s", "1", url], { env });
    const threads = String(Math.min(clients, 2));
    const { stdout } = await run(
      "pgbench",
      ["-N", "-c", String(clients), "-j", threads, "-T", String(seconds), url],
      {
        env,
      },
    );
    const tps = /tps = ([\d.]+)/.exec(stdout)?.[1];
    if (tps === undefined) throw new Error(`pgbench printed no tps:\n${stdout}`);
    return { tps: Number(tps), clients, seconds };
  } finally {
    await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(database.db).catch(() => undefined);
    await database.close();
  }
}
