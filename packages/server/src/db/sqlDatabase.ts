import type { Logger } from "@racksmith/core";
import { sql } from "kysely";
import type { Database } from "./database.js";
import { DatabaseUnavailableError, describeCause } from "./errors.js";

/**
 * The opened database, from what each dialect does its own way; NOTIFY and the ping are the same SQL on both.
 */
export function sqlDatabase(parts: Omit<Database, "notify" | "ping">, logger: Logger): Database {
  const { db, description } = parts;
  logger.debug({ database: description }, "database opened");
  return {
    ...parts,
    notify: async (channel, payload) => {
      await sql`SELECT pg_notify(${channel}, ${payload})`.execute(db);
    },
    ping: async () => {
      try {
        await sql`SELECT 1`.execute(db);
      } catch (error) {
        throw new DatabaseUnavailableError(description, describeCause(error), { cause: error });
      }
    },
  };
}
