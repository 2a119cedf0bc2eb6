import type { PGlite } from "@electric-sql/pglite";
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

/**
 * Kysely over PGlite. PGlite is a single connection, so "acquiring a connection" takes the shared lock and
 * keeps it until Kysely releases it: a transaction holds it from BEGIN to COMMIT and nothing interleaves.
 * Everything else (SQL, adapter, introspection) is PostgreSQL's.
 */
export class PgliteDialect implements Dialect {
  constructor(
    private readonly pglite: PGlite,
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
  constructor(
    private readonly pglite: PGlite,
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
    private readonly pglite: PGlite,
    private readonly lock: Semaphore,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.lock.acquire();
    return new PgliteConnection(this.pglite, release);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const modes = [
      settings.isolationLevel ? `isolation level ${settings.isolationLevel}` : "",
      settings.accessMode ?? "",
    ].filter(Boolean);
    await connection.executeQuery(CompiledQuery.raw(`start transaction ${modes.join(" ")}`.trim()));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
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
