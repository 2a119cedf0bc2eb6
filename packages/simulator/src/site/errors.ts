import { type ErrorStatus, HTTP_STATUS_BY_ERROR_STATUS } from "@racksmith/core";

/**
 * The service refused a request of the simulated site (registering its fleet), keeping the service's stable
 * code (`expected_machines_rejected`, or `http_<status>` without a Racksmith error body) and details. `code`
 * is a `string` read from the answer, not the catalogue's `ErrorCode`: branch on it with `hasErrorCode`.
 */
export class SimulatedSiteServiceError extends Error {
  readonly code: string;
  readonly status: ErrorStatus;
  readonly details: Record<string, unknown>;

  constructor(code: string, status: ErrorStatus, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = "SimulatedSiteServiceError";
    this.code = code;
    this.status = status;
    this.details = details;
  }

  /** From an error answer's status and body (`{ error: { code, status, message, details } }`). */
  static fromAnswer(request: string, httpStatus: number, body: string): SimulatedSiteServiceError {
    const error = errorBody(body);
    return new SimulatedSiteServiceError(
      error?.code ?? `http_${httpStatus}`,
      isErrorStatus(error?.status) ? error.status : "INTERNAL",
      error?.message ?? `${request} answered HTTP ${httpStatus}`,
      error?.details ?? {},
    );
  }
}

interface ErrorBody {
  code?: string;
  status?: string;
  message?: string;
  details?: Record<string, unknown>;
}

function errorBody(text: string): ErrorBody | undefined {
  try {
    return (JSON.parse(text) as { error?: ErrorBody } | null)?.error;
  } catch {
    return undefined;
  }
}

function isErrorStatus(value: unknown): value is ErrorStatus {
  return typeof value === "string" && Object.hasOwn(HTTP_STATUS_BY_ERROR_STATUS, value);
}
