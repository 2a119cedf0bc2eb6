import { scrubSecrets } from "@racksmith/core";

export interface ConnectionFailure {
  /** Short and secret-free: an errno code, a SQLSTATE with its message, or "timeout". */
  reason: string;
  kind: "unreachable" | "authentication" | "no-database" | "other";
}

const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
const AUTHENTICATION = new Set(["28P01", "28000"]);

/**
 * Why a PostgreSQL connection failed, with the password scrubbed from whatever the driver said (pg wraps
 * happy-eyeballs failures in an AggregateError whose first error has the code).
 */
export function connectionFailure(
  error: unknown,
  secrets: readonly (string | undefined)[],
): ConnectionFailure {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return connectionFailure(error.errors[0], secrets);
  }
  const candidate = error as { code?: unknown; message?: unknown } | null;
  const code = typeof candidate?.code === "string" ? candidate.code : "";
  const message = scrubSecrets(
    typeof candidate?.message === "string" ? candidate.message : String(error),
    secrets,
  );
  if (/^E[A-Z_]+$/.test(code)) return { reason: code, kind: UNREACHABLE.has(code) ? "unreachable" : "other" };
  if (/^[0-9A-Z]{5}$/.test(code)) {
    const kind = AUTHENTICATION.has(code) ? "authentication" : code === "3D000" ? "no-database" : "other";
    return { reason: `${message} (SQLSTATE ${code})`, kind };
  }
  if (/timeout/i.test(message)) return { reason: "timeout", kind: "unreachable" };
  return { reason: message || "unknown error", kind: "other" };
}
