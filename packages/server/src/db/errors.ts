import { RacksmithError } from "@racksmith/core";

/** The database cannot be reached or opened; `target` is the redacted URL or the PGlite location. */
export class DatabaseUnavailableError extends RacksmithError {
  constructor(
    readonly target: string,
    readonly reason: string,
    options: { cause?: unknown } = {},
  ) {
    super("database_unavailable", "UNAVAILABLE", `cannot connect to ${target}: ${reason}`, {
      cause: options.cause,
      details: { target, reason },
    });
  }
}

/** A migration failed; nothing of it was applied (each migration runs in its own transaction). */
export class MigrationError extends RacksmithError {
  constructor(
    readonly migration: string,
    reason: string,
    options: { cause?: unknown } = {},
  ) {
    super("migration_failed", "INTERNAL", `migration ${migration} failed: ${reason}`, {
      cause: options.cause,
      details: { migration, reason },
    });
  }
}

/** The schema is older than this code; a component that needs the tables refuses to start. */
export class DatabaseNotMigratedError extends RacksmithError {
  constructor(readonly pending: readonly string[]) {
    super(
      "database_not_migrated",
      "FAILED_PRECONDITION",
      `the database has ${pending.length} pending migration(s) (${pending.join(", ")}); run \`racksmith db migrate\``,
      { details: { pending: [...pending] } },
    );
  }
}

/**
 * One short, secret-free reason for a driver error: the errno code for network failures (pg wraps
 * happy-eyeballs failures in an AggregateError with an empty message), else the message.
 */
export function describeCause(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describeCause(error.errors[0]);
  const candidate = error as { code?: unknown; message?: unknown } | null;
  const code = typeof candidate?.code === "string" && /^E[A-Z]+$/.test(candidate.code) ? candidate.code : "";
  const message = typeof candidate?.message === "string" ? candidate.message : "";
  if (code) return code;
  return message || String(error);
}

/** PostgreSQL's foreign_key_violation: a write referred to a row another transaction removed. */
const FOREIGN_KEY_VIOLATION = "23503";

/** A write referred to a record removed while the request ran (a machine force-deleted meanwhile, say). */
export class RecordRemovedError extends RacksmithError {
  constructor(table: string | undefined, options: { cause?: unknown } = {}) {
    super(
      "record_removed",
      "NOT_FOUND",
      `what this request refers to was removed while it ran${table ? ` (writing ${table})` : ""}`,
      { cause: options.cause, details: table ? { table } : {} },
    );
  }
}

/**
 * The API's view of a database error: a foreign-key violation is a race with a removal, answered as not found;
 * anything else is returned as it is.
 */
export function asRemovalRace(error: unknown): unknown {
  const fields = error as { code?: unknown; table?: unknown } | null;
  if (!fields || !isForeignKeyViolation(error)) return error;
  return new RecordRemovedError(typeof fields.table === "string" ? fields.table : undefined, {
    cause: error,
  });
}

const UNIQUE_VIOLATION = "23505";

/** Whether a statement failed on a unique index or constraint (SQLSTATE 23505), PostgreSQL or PGlite. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === UNIQUE_VIOLATION;
}

/** A row naming another that does not exist (PostgreSQL's foreign_key_violation). */
export function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === FOREIGN_KEY_VIOLATION;
}
