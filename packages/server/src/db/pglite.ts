import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { type Logger, silentLogger } from "@racksmith/core";
import { Kysely } from "kysely";
import type { Database } from "./database.js";
import { DatabaseUnavailableError, describeCause } from "./errors.js";
import { PgliteDialect } from "./pgliteDialect.js";
import { PgliteThread } from "./pgliteThread/index.js";
import type { RacksmithDatabase } from "./schema.js";
import { SessionTurns } from "./sessionTurns.js";
import { sqlDatabase } from "./sqlDatabase.js";
import { StatementCounter } from "./statementStats.js";

/** Embedded PostgreSQL (PGlite): on disk in `dataDir`, or in memory when it is undefined. */
export async function openPglite(options: {
  dataDir: string | undefined;
  schema: string | undefined;
  logger?: Logger;
}): Promise<Database> {
  const dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
  const description = dataDir === undefined ? "in-memory PGlite" : `embedded PGlite at ${dataDir}`;
  const logger = options.logger ?? silentLogger;
  let pglite: PgliteThread;
  try {
    if (dataDir !== undefined) await mkdir(dataDir, { recursive: true });
    // The schema is set session-wide on the single connection, so every later query sees it.
    pglite = await PgliteThread.open(dataDir, options.schema);
  } catch (error) {
    throw new DatabaseUnavailableError(description, describeCause(error), { cause: error });
  }
  // PGlite is one session: transactions take turns on it, other statements are pipelined between them.
  const turns = new SessionTurns();
  const statements = new StatementCounter();
  const db = new Kysely<RacksmithDatabase>({
    dialect: new PgliteDialect(pglite, turns),
    log: statements.log,
  });
  return sqlDatabase(
    {
      kind: "pglite",
      db,
      statements: () => statements.snapshot(),
      description,
      label: dataDir === undefined ? "in-memory PGlite" : "embedded PGlite (data directory)",
      schema: options.schema,
      // LISTEN takes its turn like a statement, so it never lands inside someone else's transaction.
      listen: async (channel, onNotify) => {
        const stop = await turns.send(() => pglite.listen(channel, onNotify));
        return () => turns.send(() => (pglite.closed ? Promise.resolve() : stop()));
      },
      close: () => db.destroy(),
    },
    logger,
  );
}
