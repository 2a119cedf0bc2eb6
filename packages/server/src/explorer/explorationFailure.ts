import { ERROR_CODES, hasErrorCode, isRacksmithError, RacksmithError } from "@racksmith/core";

/** Why the last exploration of an endpoint failed (NICo's typed `last_exploration_error`). */
export const EXPLORATION_FAILURE_CODES = [
  "unreachable",
  "timeout",
  "unauthorized",
  "missing_credentials",
  "redfish_error",
  "avoid_lockout",
  "malformed_response",
  "password_change_required",
  "rotation_failed",
  "internal",
] as const;
export type ExplorationFailureCode = (typeof EXPLORATION_FAILURE_CODES)[number];

/** The last error of an endpoint as stored and shown; never holds a credential. */
export interface ExplorationFailure {
  code: ExplorationFailureCode;
  message: string;
  /** `redfish_error`: the BMC's HTTP status and the start of its body. */
  httpStatus?: number;
  bodyExcerpt?: string;
}

/**
 * An exploration failure the explorer itself decides (no credentials, lockout avoided, rotation refused), or
 * any failure of `powerOn` typed. Its stable code is the catalogue's `exploration_<failure code>` (with the
 * catalogue's status); `failureCode` is what is stored and shown as the endpoint's last error.
 */
export class ExplorationError extends RacksmithError {
  declare readonly code: `exploration_${ExplorationFailureCode}`;

  constructor(
    readonly failureCode: ExplorationFailureCode,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    const code = `exploration_${failureCode}` as const;
    super(code, ERROR_CODES[code].status, message, options);
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Maps whatever an exploration threw to its typed failure (HTTP status and body excerpt kept). */
export function toExplorationFailure(error: unknown): ExplorationFailure {
  if (error instanceof ExplorationError) return { code: error.failureCode, message: error.message };
  if (!isRacksmithError(error)) {
    return { code: "internal", message: messageOf(error) };
  }
  if (hasErrorCode(error, "redfish_connection_error")) return { code: "unreachable", message: error.message };
  if (hasErrorCode(error, "redfish_timeout")) return { code: "timeout", message: error.message };
  if (hasErrorCode(error, "redfish_malformed_response")) {
    return { code: "malformed_response", message: error.message };
  }
  if (hasErrorCode(error, "password_change_required")) {
    return { code: "password_change_required", message: error.message };
  }
  if (hasErrorCode(error, "redfish_http_error")) {
    const httpStatus = Number(error.details.httpStatus);
    if (httpStatus === 401) return { code: "unauthorized", message: error.message };
    return {
      code: "redfish_error",
      message: error.message,
      ...(Number.isInteger(httpStatus) ? { httpStatus } : {}),
      bodyExcerpt: String(error.details.bodyExcerpt ?? ""),
    };
  }
  return { code: "internal", message: `${error.code}: ${error.message}` };
}
