/**
 * SQLSTATEs that mean the connection, not the statement, failed: class 08 (connection exception) and the
 * server going away (57P01 admin shutdown — `pg_terminate_backend` —, 57P02 crash, 57P03 starting up).
 * Not 08P01 (protocol violation): PostgreSQL answers it to a statement it cannot bind, such as one with more
 * than 65,535 parameters, on a connection that stays up — retrying cannot help and "cannot connect" would
 * mislead. A violation that does end the connection shows as a lost connection at the next use.
 */
const CONNECTION_STATES = /^(08(?!P01)...|57P0[123])$/;
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
]);
// pg reports a dropped socket and a pool connect timeout with these messages and no code.
const CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Client was closed and is not queryable/,
];

/** True when `error` says the database connection was lost or could not be made (not a bad statement). */
export function isConnectionLoss(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.some(isConnectionLoss);
  const candidate = error as { code?: unknown; message?: unknown } | null;
  const code = typeof candidate?.code === "string" ? candidate.code : "";
  if (CONNECTION_STATES.test(code) || NETWORK_CODES.has(code)) return true;
  const message = typeof candidate?.message === "string" ? candidate.message : "";
  return CONNECTION_MESSAGES.some((pattern) => pattern.test(message));
}
