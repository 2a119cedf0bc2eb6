import { GRPC_CODE_BY_ERROR_STATUS, HTTP_STATUS_BY_ERROR_STATUS, toRacksmithError } from "@racksmith/core";
import { asRemovalRace } from "../db/index.js";

/** The error body every REST endpoint answers with. */
export interface ApiErrorBody {
  error: { code: string; status: string; message: string; details: Record<string, unknown> };
}

/** The one place a Racksmith error becomes an HTTP status and body. */
export function toHttpError(error: unknown): { statusCode: number; body: ApiErrorBody } {
  const racksmith = toRacksmithError(asRemovalRace(error));
  const internal = racksmith.status === "INTERNAL";
  return {
    statusCode: HTTP_STATUS_BY_ERROR_STATUS[racksmith.status],
    body: {
      error: {
        code: racksmith.code,
        status: racksmith.status,
        // Unexpected failures are logged in full, but clients get no internals.
        message: internal ? "internal error" : racksmith.message,
        details: internal ? {} : racksmith.details,
      },
    },
  };
}

/** The one place a Racksmith error becomes a gRPC status (with the stable code in metadata). */
export function toGrpcError(error: unknown): { code: number; details: string; errorCode: string } {
  const racksmith = toRacksmithError(asRemovalRace(error));
  const internal = racksmith.status === "INTERNAL";
  return {
    code: GRPC_CODE_BY_ERROR_STATUS[racksmith.status],
    details: internal ? "internal error" : racksmith.message,
    errorCode: racksmith.code,
  };
}
