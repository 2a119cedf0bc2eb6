/**
 * The transport-neutral status every Racksmith error carries. It is mapped exactly once to HTTP and once to
 * gRPC (the tables below), so REST and gRPC clients see the same meaning for the same error.
 */
export type ErrorStatus =
  | "INVALID_ARGUMENT"
  | "NOT_FOUND"
  | "ALREADY_EXISTS"
  | "FAILED_PRECONDITION"
  | "ABORTED"
  | "PERMISSION_DENIED"
  | "UNAUTHENTICATED"
  | "RESOURCE_EXHAUSTED"
  | "UNIMPLEMENTED"
  | "UNAVAILABLE"
  | "DEADLINE_EXCEEDED"
  | "INTERNAL";

export const HTTP_STATUS_BY_ERROR_STATUS: Readonly<Record<ErrorStatus, number>> = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  ABORTED: 409,
  FAILED_PRECONDITION: 412,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
  UNIMPLEMENTED: 501,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
};

/** Numeric gRPC status codes (see grpc/status.h); kept here so the SDK does not depend on a gRPC library. */
export const GRPC_CODE_BY_ERROR_STATUS: Readonly<Record<ErrorStatus, number>> = {
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
};
