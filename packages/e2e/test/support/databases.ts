import { randomUUID } from "node:crypto";
import { openDatabase } from "@racksmith/server";

/** Where a test's service keeps its data: embedded PGlite on disk, or a fresh schema of PostgreSQL. */
export type E2eDatabase = { kind: "pglite" } | { kind: "postgres"; url: string };

const POSTGRES_URL = process.env.RACKSMITH_TEST_DATABASE_URL || undefined;

/** The embedded database always; PostgreSQL too when RACKSMITH_TEST_DATABASE_URL names one (CI does). */
export const E2E_DATABASES: readonly E2eDatabase[] = [
  { kind: "pglite" },
  ...(POSTGRES_URL ? [{ kind: "postgres" as const, url: POSTGRES_URL }] : []),
];

if (!POSTGRES_URL) {
  console.warn(
    "e2e: RACKSMITH_TEST_DATABASE_URL is not set; end-to-end tests run on the embedded database only",
  );
}

/** The `database` config section for a site, and how to remove what it stored. */
export function databaseSection(database: E2eDatabase): {
  section: Record<string, string>;
  drop(): Promise<void>;
} {
  if (database.kind === "pglite") return { section: { dataDir: "data" }, drop: async () => undefined };
  const schema = `e2e_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
  return {
    section: { url: database.url, schema },
    drop: async () => {
      const opened = await openDatabase({ url: database.url });
      try {
        await opened.db.schema.dropSchema(schema).ifExists().cascade().execute();
      } finally {
        await opened.close();
      }
    },
  };
}
