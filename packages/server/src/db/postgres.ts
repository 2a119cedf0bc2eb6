import { type Logger, redactUrl, silentLogger } from "@racksmith/core";
import { type Driver, Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { Database } from "./database.js";
import { DeferredSnapshotDriver } from "./deferredSnapshots.js";
import { DatabaseUnavailableError, describeCause } from "./errors.js";
import { PgNotificationListener } from "./pgListener.js";
import { PreparedStatementNames } from "./preparedStatements.js";
import { resilientPool } from "./resilientPool.js";
import type { RacksmithDatabase } from "./schema.js";
import { sqlDatabase } from "./sqlDatabase.js";
import { StatementCounter } from "./statementStats.js";
import { TableUpkeep } from "./tableUpkeep.js";
import { INT8_OID, parseInt8 } from "./types.js";

const CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_POOL_SIZE = 10;
const DUPLICATE_SCHEMA = new Set(["42P06", "23505"]);
export const DEFAULT_UPKEEP_INTERVAL_MS = 60_000;

const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** PostgreSQL through a `pg` pool, plus one dedicated connection for LISTEN. */
export async function openPostgres(options: {
  url: string;
  schema: string | undefined;
  poolSize?: number;
  preparedStatements?: boolean | undefined;
  /** See `TableUpkeep`; default 60 s, 0 off. */
  upkeepIntervalMs?: number | undefined;
  logger?: Logger;
}): Promise<Database> {
  const description = redactUrl(options.url);
  const logger = options.logger ?? silentLogger;
  const config: pg.ClientConfig = {
    connectionString: options.url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    types: typeParsers,
    // A startup parameter, so every pooled connection (and the listener) uses the schema from the start.
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  };
  const max = options.poolSize ?? DEFAULT_POOL_SIZE;
  const pool = new pg.Pool({ ...config, max });
  // Before the first query: every client the pool ever opens must get its error listener.
  const kyselyPool = resilientPool(pool, {
    description,
    logger,
    ...(options.preparedStatements === false ? {} : { prepared: new PreparedStatementNames() }),
  });
  // An idle client can fail (server restart); without a handler pg would crash the process.
  pool.on("error", (error) => {
    logger.warn({ database: description, reason: describeCause(error) }, "idle database connection failed");
  });
  const unavailable = (error: unknown) =>
    new DatabaseUnavailableError(description, describeCause(error), { cause: error });

  try {
    await pool.query("SELECT 1");
    if (options.schema) await createSchema(pool, options.schema);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw unavailable(error);
  }

  const statements = new StatementCounter();
  const db = new Kysely<RacksmithDatabase>({
    dialect: new DeferredSnapshotDialect({ pool: kyselyPool }),
    log: statements.log,
  });
  const listener = new PgNotificationListener(config, description, logger);
  const upkeep = new TableUpkeep(pool, {
    intervalMs: options.upkeepIntervalMs ?? DEFAULT_UPKEEP_INTERVAL_MS,
    description,
    logger,
  });
  await upkeep.start().catch((error: unknown) => {
    logger.warn({ database: description, reason: describeCause(error) }, "table upkeep not started");
  });
  return sqlDatabase(
    {
      kind: "postgres",
      db,
      statements: () => statements.snapshot(),
      connections: () => ({ max, open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      description,
      label: description,
      schema: options.schema,
      listen: (channel, onNotify) => listener.listen(channel, onNotify),
      close: async () => {
        await upkeep.stop();
        await listener.close();
        await db.destroy();
      },
    },
    logger,
  );
}

async function createSchema(pool: pg.Pool, schema: string): Promise<void> {
  try {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  } catch (error) {
    // Two replicas creating the schema at once: one of them loses the race, which is fine.
    const code = (error as { code?: unknown }).code;
    if (typeof code !== "string" || !DUPLICATE_SCHEMA.has(code)) throw error;
  }
}

/** PostgreSQL's dialect with read-only transactions that begin at their first statement. */
class DeferredSnapshotDialect extends PostgresDialect {
  override createDriver(): Driver {
    return new DeferredSnapshotDriver(super.createDriver());
  }
}
