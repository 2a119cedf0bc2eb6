import { type Kysely, sql } from "kysely";
import type { EngineTables } from "./database.js";

/**
 * Takes the cluster-wide lock `key` for `holdMs` if nobody holds it or its holder's time is up. The lock is
 * not released early on purpose: held for a whole iteration interval, it means "this periodic work was
 * done, nobody repeat it before the interval ends", and a dead holder's lock simply expires.
 * With `renew`, its holder also takes it again before it expires (and holds it `holdMs` from `now`), so the
 * holder can re-run early while every other owner stays out.
 */
export async function tryAcquireWorkLock(
  db: Kysely<EngineTables>,
  options: { key: string; owner: string; now: Date; holdMs: number; renew?: boolean },
): Promise<boolean> {
  const expiresAt = new Date(options.now.getTime() + options.holdMs);
  const orHeldByOwner = options.renew ? sql` OR work_locks.owner = excluded.owner` : sql``;
  const { rows } = await sql<{ owner: string }>`
    INSERT INTO work_locks (work_key, owner, expires_at)
    VALUES (${options.key}, ${options.owner}, ${expiresAt}::timestamptz)
    ON CONFLICT (work_key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
      WHERE work_locks.expires_at <= ${options.now}::timestamptz${orHeldByOwner}
    RETURNING owner`.execute(db);
  return rows.length > 0;
}

/** Drops every work lock (an engine's start on a database only it can use: the holders are gone). */
export async function releaseAllWorkLocks(db: Kysely<EngineTables>): Promise<number> {
  const result = await db.deleteFrom("work_locks").executeTakeFirst();
  return Number(result.numDeletedRows);
}
