import { redactUrl } from "@racksmith/core";
import { connectionFailure } from "./connectionFailure.js";
import { type DatabaseTarget, postgresEndpoint } from "./databaseTarget.js";
import { migrationFinding } from "./migrationFindings.js";
import { type DoctorCheck, finding } from "./types.js";

export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

const SETTINGS = "database.url / RACKSMITH_DATABASE_URL / --database-url";

/**
 * Connects once with a short timeout (not through `openDatabase`, which waits longer and creates the
 * configured schema), runs `select 1` and reads the applied migrations. The password is never printed.
 */
export async function checkPostgres(
  target: Extract<DatabaseTarget, { kind: "postgres" }>,
  timeoutMs = DEFAULT_CONNECT_TIMEOUT_MS,
): Promise<DoctorCheck> {
  const endpoint = postgresEndpoint(target.url);
  const where = `PostgreSQL at ${endpoint} (${redactUrl(target.url)}, from ${target.source})`;
  if (!/^postgres(ql)?:\/\//.test(target.url)) {
    return finding(
      "database",
      "fail",
      `${target.source} is not a PostgreSQL URL`,
      `set ${target.source} to a URL like postgres://racksmith@db.example:5432/racksmith`,
    );
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({
    connectionString: target.url,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    // The service sets the schema the same way, so the migrations table is looked up where it keeps it.
    ...(target.schema ? { options: `-c search_path=${target.schema}` } : {}),
  });
  // A connection that fails after connect() resolved must not crash doctor.
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("select 1");
    const table = await client.query<{ exists: boolean }>(
      "select to_regclass('racksmith_migrations') is not null as exists",
    );
    const applied = table.rows[0]?.exists
      ? (
          await client.query<{ name: string }>("select name from racksmith_migrations order by name")
        ).rows.map((row) => row.name)
      : [];
    return migrationFinding(where, applied);
  } catch (error) {
    const failure = connectionFailure(error, passwords(target.url));
    return finding("database", "fail", `cannot connect to ${where}: ${failure.reason}`, fixFor(failure.kind));
  } finally {
    await client.end().catch(() => undefined);
  }

  function fixFor(kind: ReturnType<typeof connectionFailure>["kind"]): string {
    switch (kind) {
      case "unreachable":
        return `start PostgreSQL at ${endpoint}, or fix ${SETTINGS} (from ${target.source} now)`;
      case "authentication":
        return `check the user and password in ${target.source}`;
      case "no-database":
        return `create the database (createdb), or fix its name in ${target.source}`;
      default:
        return `check that PostgreSQL at ${endpoint} accepts this connection, or fix ${target.source}`;
    }
  }
}

/** The URL's password as written and as pg decodes it, to scrub either from driver messages. */
function passwords(url: string): string[] {
  try {
    const { password } = new URL(url);
    return password ? [password, decodeURIComponent(password)] : [];
  } catch {
    return [];
  }
}
