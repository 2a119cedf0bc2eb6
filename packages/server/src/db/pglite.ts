import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { type Logger, silentLogger } from "@racksmith/core";
import { Semaphore } from "@racksmith/core/redfish";
import { Kysely } from "kysely";
import type { Database } from "./database.js";
import { DatabaseUnavailableError, describeCause } from "./errors.js";
import { PgliteDialect } from "./pgliteDialect.js";
import type { RacksmithDatabase } from "./schema.js";
import { sqlDatabase } from "./sqlDatabase.js";
import { INT8_OID, parseInt8 } from "./types.js";

/** Embedded PostgreSQL (PGlite): on disk in `dataDir`, or in memory when it is undefined. */
export async function openPglite(options: {
  dataDir: string | undefined;
  schema: string | undefined;
  logger?: Logger;
}): Promise<Database> {
  const dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
  const description = dataDir === undefined ? "in-memory PGlite" : `embedded PGlite at ${dataDir}`;
  const logger = options.logger ?? silentLogger;
  let pglite: PGlite;
  try {
    if (dataDir !== undefined) await mkdir(dataDir, { recursive: true });
    pglite = await PGlite.create(dataDir, { parsers: { [INT8_OID]: parseInt8 } });
    if (options.schema) {
      // Session-wide on the single connection, so every later query sees the schema.
      await pglite.exec(
        `CREATE SCHEMA IF NOT EXISTS ${options.schema}; SET search_path TO ${options.schema}`,
      );
    }
  } catch (error) {
    throw new DatabaseUnavailableError(description, describeCause(error), { cause: error });
  }
  // PGlite is one connection: every user of it takes turns, in arrival order.
  const lock = new Semaphore(1);
  const db = new Kysely<RacksmithDatabase>({ dialect: new PgliteDialect(pglite, lock) });
  return sqlDatabase(
    {
      kind: "pglite",
      db,
      description,
      label: dataDir === undefined ? "in-memory PGlite" : "embedded PGlite (data directory)",
      schema: options.schema,
      // LISTEN goes through the lock too, so it never lands inside someone else's transaction.
      listen: async (channel, onNotify) => {
        const stop = await lock.run(() => pglite.listen(channel, onNotify));
        return () => lock.run(() => (pglite.closed ? Promise.resolve() : stop()));
      },
      close: () => db.destroy(),
    },
    logger,
  );
}
