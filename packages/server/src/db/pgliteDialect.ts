import type { Semaphore } from "@racksmith/core/redfish";
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from "kysely";
import type { EmbeddedPostgres } from "./pgliteThread/index.js";

/**
 * Kysely over PGlite (in its thread). PGlite is a single connection, so "acquiring a connection" takes the shared lock and
 * keeps it until Kysely releases it: a transaction holds it from BEGIN to COMMIT and nothing interleaves.
 * Everything else (SQL, adapter, introspection) is PostgreSQL's.
 */
export class PgliteDialect implements Dialect {
  constructor(
    private readonly pglite: EmbeddedPostgres,
    private readonly lock: Semaphore,
  ) {}

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PgliteDriver(this.pglite, this.lock);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}

class PgliteConnection implements DatabaseConnection {
  /** In a read-only transaction that was never sent: the lock alone keeps its reads consistent. */
  lockOnlyTransaction = false;

  constructor(
    private readonly pglite: EmbeddedPostgres,
    readonly release: () => void,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(compiledQuery.sql, [...compiledQuery.parameters]);
    return {
      rows: result.rows,
      numAffectedRows: result.affectedRows === undefined ? undefined : BigInt(result.affectedRows),
    };
  }

  // biome-ignore lint/correctness/useYield: streaming is not supported; the generator only throws.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streaming queries are not supported on PGlite");
  }
}

class PgliteDriver implements Driver {
  constructor(
    private readonly pglite: EmbeddedPostgres,
    private readonly lock: Semaphore,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.lock.acquire();
    return new PgliteConnection(this.pglite, release);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    // Nothing can run between two statements while the lock is held, so a read-only transaction sees one
    // snapshot without BEGIN and COMMIT: two round trips to the database thread saved per snapshot.
    if (settings.accessMode === "read only") {
      (connection as PgliteConnection).lockOnlyTransaction = true;
      return;
    }
    const modes = [
      settings.isolationLevel ? `isolation level ${settings.isolationLevel}` : "",
      settings.accessMode ?? "",
    ].filter(Boolean);
    await connection.executeQuery(CompiledQuery.raw(`start transaction ${modes.join(" ")}`.trim()));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    if (endLockOnly(connection)) return;
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (endLockOnly(connection)) return;
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PgliteConnection).release();
  }

  async destroy(): Promise<void> {
    // Wait for the query in progress (if any) so PGlite is not closed under it.
    await this.lock.run(async () => {
      if (!this.pglite.closed) await this.pglite.close();
    });
  }
}

/** Ends a lock-only transaction (true), or says the connection is in a real one (false). */
function endLockOnly(connection: DatabaseConnection): boolean {
  const pglite = connection as PgliteConnection;
  if (!pglite.lockOnlyTransaction) return false;
  pglite.lockOnlyTransaction = false;
  return true;
}
