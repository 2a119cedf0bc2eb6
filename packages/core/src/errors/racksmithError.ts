import type { ErrorCode } from "./codes.js";
import type { ErrorStatus } from "./status.js";

export interface RacksmithErrorOptions {
  /** Structured, secret-free facts about the failure (shown by `--json` and API error bodies). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * Base class of every error Racksmith raises on purpose. `code` is stable (snake_case, never reused for a
 * different meaning) so scripts and the API can branch on it; `status` says what kind of failure it is.
 * Every code is an entry of the catalogue (`ERROR_CODES`), and `status` is the one the catalogue gives it
 * (`codes.test.ts` checks every literal `super(code, status, …)` against it). The one exception is
 * `redfish_http_error`, whose status follows the BMC's HTTP status.
 */
export class RacksmithError extends Error {
  readonly code: ErrorCode;
  readonly status: ErrorStatus;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, status: ErrorStatus, message: string, options: RacksmithErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = status;
    this.details = options.details ?? {};
  }

  toJSON(): { code: ErrorCode; status: ErrorStatus; message: string; details: Record<string, unknown> } {
    return { code: this.code, status: this.status, message: this.message, details: this.details };
  }
}

/**
 * True for any Racksmith error, including one thrown by a plugin bundling another copy of this package
 * (where `instanceof` would fail): recognised by its string `code` and `status`. Such a copy may be another
 * version, so a recognised error's code is not guaranteed to be in this catalogue: branch on it with
 * `hasErrorCode`, never by comparing `code` to a string.
 */
export function isRacksmithError(error: unknown): error is RacksmithError {
  if (error instanceof RacksmithError) return true;
  const candidate = error as { code?: unknown; status?: unknown } | null;
  return (
    error instanceof Error && typeof candidate?.code === "string" && typeof candidate.status === "string"
  );
}

/**
 * True when the error carries this stable code (works across package copies). The one way to branch on a
 * code: `code` must be in the catalogue, so a typo fails typecheck.
 */
export function hasErrorCode<C extends ErrorCode>(
  error: unknown,
  code: C,
): error is RacksmithError & { readonly code: C } {
  return isRacksmithError(error) && error.code === code;
}

/** True when a driver said it cannot do the operation. */
export function isNotSupported(error: unknown): boolean {
  return hasErrorCode(error, "not_supported");
}

/** Wraps anything thrown into a RacksmithError, keeping the original as `cause`. */
export function toRacksmithError(error: unknown): RacksmithError {
  if (isRacksmithError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new RacksmithError("internal", "INTERNAL", message, { cause: error });
}
