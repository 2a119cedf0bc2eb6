import { resolve } from "node:path";
import type { LoadedConfig } from "../config/index.js";
import type { DoctorOptions } from "./types.js";

export type DatabaseTarget =
  | {
      kind: "postgres";
      url: string;
      /** Which setting gave the URL, for the fix. */
      source: "--database-url" | "database.url" | "RACKSMITH_DATABASE_URL";
      schema: string | undefined;
    }
  | { kind: "embedded"; dataDir: string; source: "--data-dir" | "database.dataDir" };

/** The database `racksmith serve` would open: `--database-url`, `database.url`, the env, else embedded. */
export function databaseTarget(
  options: Pick<DoctorOptions, "databaseUrl" | "dataDir" | "cwd" | "env">,
  loaded: LoadedConfig,
): DatabaseTarget {
  const { database } = loaded.config;
  const schema = database.schema || undefined;
  if (options.databaseUrl) {
    return { kind: "postgres", url: options.databaseUrl, source: "--database-url", schema };
  }
  if (database.url) return { kind: "postgres", url: database.url, source: "database.url", schema };
  const fromEnv = options.env.RACKSMITH_DATABASE_URL;
  if (fromEnv) return { kind: "postgres", url: fromEnv, source: "RACKSMITH_DATABASE_URL", schema };
  // A path on the command line is relative to where doctor runs; one in the config file, to the file.
  return options.dataDir
    ? { kind: "embedded", dataDir: resolve(options.cwd, options.dataDir), source: "--data-dir" }
    : { kind: "embedded", dataDir: resolve(loaded.baseDir, database.dataDir), source: "database.dataDir" };
}

/** `host:port` of a PostgreSQL URL (port 5432 unless given), safe to print: it holds no credentials. */
export function postgresEndpoint(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "an unparsable URL";
  }
  // libpq's `?host=/run/postgresql` names a socket directory instead of a host.
  const host = parsed.searchParams.get("host") || parsed.hostname || "localhost";
  return `${host}:${parsed.port || "5432"}`;
}
