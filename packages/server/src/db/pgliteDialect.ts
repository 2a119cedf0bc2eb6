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
import type { SessionTurns } from "./sessionTurns.js";

/**
 * Kysely over PGlite (in its thread). PGlite is one session whose statements run in the order they are sent,
 * so a statement outside a transaction is sent at once (pipelined: the thread never idles waiting for this
 * event loop), while a transaction takes the session's turn from BEGIN to COMMIT and nothing interleaves.
 * Everything else (SQL, adapter, introspection) is PostgreSQL's.
 */
export class PgliteDialect implements Dialect {
  constructor(
    private readonly pglite: EmbeddedPostgres,
    private readonly turns: SessionTurns,
  ) {}

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PgliteDriver(this.pglite, this.turns);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}

class PgliteConnection implements DatabaseConnection {
  /** The session's turn while this connection runs a transaction. */
  turn: (() => void) | undefined;
  /** In a read-only transaction that was never sent: holding the turn alone keeps its reads consistent. */
  turnOnly = false;

  constructor(
    private readonly pglite: EmbeddedPostgres,
    private readonly turns: SessionTurns,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const send = () => this.pglite.query<R>(compiledQuery.sql, [...compiledQuery.parameters]);
    const result = await (this.turn ? send() : this.turns.send(send));
    return {
      rows: result.rows,
      numAffectedRows: result.affectedRows === undefined ? undefined : BigInt(result.affectedRows),
    };
  }

  /** Ends the transaction with `statement` (sent before the turn passes on, so it runs first) and its turn. */
  async end(statement: "commit" | "rollback"): Promise<void> {
    const turn = this.turn;
    // Already ended (a failed COMMIT is followed by Kysely's ROLLBACK): PostgreSQL ended it too.
    if (!turn) return;
    this.turn = undefined;
    if (this.turnOnly) {
      this.turnOnly = false;
      turn();
      return;
    }
    const sent = this.pglite.query(statement, []);
    turn();
    await sent;
  }

  // biome-ignore lint/correctness/useYield: streaming is not supported; the generator only throws.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streaming queries are not supported on PGlite");
  }
}

class PgliteDriver implements Driver {
  constructor(
    private readonly pglite: EmbeddedPostgres,
    private readonly turns: SessionTurns,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PgliteConnection(this.pglite, this.turns);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const pglite = connection as PgliteConnection;
    pglite.turn = await this.turns.transaction();
    // Nothing can run between two statements while the turn is held, so a read-only transaction sees one
    // snapshot without BEGIN and COMMIT: two round trips to the database thread saved per snapshot.
    if (settings.accessMode === "read only") {
      pglite.turnOnly = true;
      return;
    }
    const modes = [
      settings.isolationLevel ? `isolation level ${settings.isolationLevel}` : "",
      settings.accessMode ?? "",
    ].filter(Boolean);
    try {
      await connection.executeQuery(CompiledQuery.raw(`start transaction ${modes.join(" ")}`.trim()));
    } catch (error) {
      pglite.turn();
      pglite.turn = undefined;
      throw error;
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PgliteConnection).end("commit");
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PgliteConnection).end("rollback");
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    // A transaction Kysely gave up on without COMMIT or ROLLBACK must not keep the session.
    const pglite = connection as PgliteConnection;
    if (pglite.turn) await pglite.end("rollback");
  }

  async destroy(): Promise<void> {
    // Everything already sent runs before the close, which waits for its turn like a transaction.
    const release = await this.turns.transaction();
    try {
      if (!this.pglite.closed) await this.pglite.close();
    } finally {
      release();
    }
  }
}
