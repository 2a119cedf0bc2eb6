import type { Logger } from "@racksmith/core";
import type { EngineDatabase } from "@racksmith/core/engine";
import type { Kysely } from "kysely";
import { assertSchemaName } from "./identifiers.js";
import type { RacksmithDatabase } from "./schema.js";
import type { ConnectionStats, StatementStats } from "./statementStats.js";

export const DEFAULT_DATA_DIR = ".racksmith/data";

export interface OpenDatabaseOptions {
  /** PostgreSQL URL; when set, PostgreSQL is used and the PGlite options are ignored. */
  url?: string;
  /** Directory of the embedded PGlite database (created if missing); default `.racksmith/data`. */
  dataDir?: string;
  /** Embedded PGlite in memory (tests). */
  inMemory?: boolean;
  /** PostgreSQL schema holding every table (created if missing); default: the server's search_path. */
  schema?: string;
  /**
   * Size of the PostgreSQL connection pool (default 10, `database.poolSize`); LISTEN uses one more, dedicated
   * connection.
   */
  poolSize?: number;
  /** PostgreSQL: prepare the statements sent again and again (default true; see `PreparedStatementNames`). */
  preparedStatements?: boolean;
  /**
   * PostgreSQL whose autovacuum is off: how often the service vacuums and analyzes its own tables (default
   * 60 s; 0 never). Nothing is done while autovacuum is on. See `TableUpkeep`.
   */
  upkeepIntervalMs?: number;
  logger?: Logger;
}

/** The service's database: what the state engine needs, plus the dialect, a ping and close. */
export interface Database extends EngineDatabase {
  readonly kind: "postgres" | "pglite";
  readonly db: Kysely<RacksmithDatabase>;
  /** Where the data lives, safe to print: the URL with its password redacted, or the PGlite location. */
  readonly description: string;
  /** What the API may show (`/readyz`, version): the kind, and for PostgreSQL the redacted URL; no file path. */
  readonly label: string;
  readonly schema: string | undefined;
  /** Statements sent so far and their time (for `/metrics` and benchmarks). */
  statements(): StatementStats;
  /** PostgreSQL: the connection pool's state now (`/metrics`); undefined for PGlite, one connection in-process. */
  connections?(): ConnectionStats;
  /** Calls `onNotify` for every NOTIFY on `channel`; resolves once listening, to a function that stops. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  /** Resolves when the database answers; throws DatabaseUnavailableError otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens PostgreSQL when a URL is given, else embedded PGlite (on disk, or in memory). Both are driven
 * through Kysely with the same SQL. Fails with DatabaseUnavailableError when the database cannot be reached.
 */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  if (options.schema !== undefined) assertSchemaName(options.schema);
  // Each dialect is loaded only when used: PGlite brings a WebAssembly build, pg a pool.
  if (options.url) {
    const { openPostgres } = await import("./postgres.js");
    return openPostgres({
      url: options.url,
      schema: options.schema,
      poolSize: options.poolSize,
      preparedStatements: options.preparedStatements,
      upkeepIntervalMs: options.upkeepIntervalMs,
      logger: options.logger,
    });
  }
  const { openPglite } = await import("./pglite.js");
  return openPglite({
    dataDir: options.inMemory ? undefined : (options.dataDir ?? DEFAULT_DATA_DIR),
    schema: options.schema,
    logger: options.logger,
  });
}
