import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from "kysely";

/**
 * A connection in a read-only transaction whose BEGIN has not been sent: it is sent just before the first
 * statement, so a snapshot nobody reads from (a state machine's `load` that needs no row) costs no round
 * trip at all, neither BEGIN nor COMMIT.
 */
class DeferringConnection implements DatabaseConnection {
  /** The BEGIN still to send; undefined outside a deferred transaction or once sent. */
  pendingBegin: string | undefined;

  constructor(readonly inner: DatabaseConnection) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const begin = this.pendingBegin;
    if (begin !== undefined) {
      this.pendingBegin = undefined;
      await this.inner.executeQuery(CompiledQuery.raw(begin));
    }
    return this.inner.executeQuery<R>(compiledQuery);
  }

  streamQuery<R>(compiledQuery: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (this.pendingBegin !== undefined)
      throw new Error("streaming is not supported in a read-only snapshot");
    return this.inner.streamQuery<R>(compiledQuery, chunkSize);
  }
}

function beginStatement(settings: TransactionSettings): string {
  const modes = [
    settings.isolationLevel ? `isolation level ${settings.isolationLevel}` : "",
    settings.accessMode ?? "",
  ].filter(Boolean);
  return `start transaction ${modes.join(" ")}`.trim();
}

/**
 * Wraps a PostgreSQL driver so read-only transactions begin lazily (see `DeferringConnection`); every
 * other transaction and statement goes through unchanged. A read-only transaction that ran no statement
 * ends without COMMIT or ROLLBACK: nothing was opened on the server.
 */
export class DeferredSnapshotDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new DeferringConnection(await this.inner.acquireConnection());
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const deferring = connection as DeferringConnection;
    if (settings.accessMode === "read only") deferring.pendingBegin = beginStatement(settings);
    else await this.inner.beginTransaction(deferring.inner, settings);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.unopened(connection))
      await this.inner.commitTransaction((connection as DeferringConnection).inner);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.unopened(connection))
      await this.inner.rollbackTransaction((connection as DeferringConnection).inner);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    const deferring = connection as DeferringConnection;
    deferring.pendingBegin = undefined;
    return this.inner.releaseConnection(deferring.inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  /** True (and the transaction ended) when its BEGIN was never sent. */
  private unopened(connection: DatabaseConnection): boolean {
    const deferring = connection as DeferringConnection;
    if (deferring.pendingBegin === undefined) return false;
    deferring.pendingBegin = undefined;
    return true;
  }
}
