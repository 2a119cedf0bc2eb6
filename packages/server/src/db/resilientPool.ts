import type { Logger } from "@racksmith/core";
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from "kysely";
import type pg from "pg";
import { isConnectionLoss } from "./connectionLoss.js";
import { DatabaseUnavailableError, describeCause } from "./errors.js";
import type { PreparedStatementNames } from "./preparedStatements.js";

/**
 * The pool Kysely uses, made safe for lost connections. pg emits `error` on a checked-out client whose
 * backend dies between queries, and an unhandled `error` event kills the process: every client gets a
 * listener for its whole life. A query or connect that fails because the connection is gone throws
 * `database_unavailable` (503 / UNAVAILABLE), so callers see one typed error and retry; pg drops the broken
 * client from the pool when it is released, and the next query opens a fresh one.
 */
export function resilientPool(
  pool: pg.Pool,
  options: { description: string; logger: Logger; prepared?: PreparedStatementNames },
): PostgresPool {
  const { description, logger, prepared } = options;
  const translate = (error: unknown): unknown =>
    isConnectionLoss(error)
      ? new DatabaseUnavailableError(description, describeCause(error), { cause: error })
      : error;
  pool.on("connect", (client) => {
    client.on("error", (error) => {
      logger.warn({ database: description, reason: describeCause(error) }, "database connection lost");
    });
  });
  return {
    async connect(): Promise<PostgresPoolClient> {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw translate(error);
      }
      return wrapClient(client, translate, prepared);
    },
    end: () => pool.end(),
  };
}

function wrapClient(
  client: pg.PoolClient,
  translate: (error: unknown) => unknown,
  prepared: PreparedStatementNames | undefined,
): PostgresPoolClient {
  function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query<R>(
    sqlOrCursor: string | PostgresCursor<R>,
    parameters?: ReadonlyArray<unknown>,
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    // Cursors (streaming) are passed through: their reads fail with pg's own error.
    if (typeof sqlOrCursor !== "string") return client.query(sqlOrCursor as never) as PostgresCursor<R>;
    const name = prepared?.nameFor(sqlOrCursor);
    const values = parameters as unknown[];
    const sent = name ? client.query({ name, text: sqlOrCursor, values }) : client.query(sqlOrCursor, values);
    return (sent as unknown as Promise<PostgresQueryResult<R>>).catch((error: unknown) => {
      throw translate(error);
    });
  }
  return { query, release: () => client.release() };
}
