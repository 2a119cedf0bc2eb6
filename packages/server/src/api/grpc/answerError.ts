import { Metadata, type sendUnaryData, status } from "@grpc/grpc-js";
import type { Logger } from "@racksmith/core";
import { toGrpcError } from "../errors.js";
import { excerpt } from "../input/index.js";

/** How much of an unexpected error's message is logged: it may quote a request of megabytes. */
const MAX_LOGGED_MESSAGE_LENGTH = 4096;

/** Answers a unary call with `error` through the one error mapping; unexpected errors are logged. */
export function answerError(logger: Logger, callback: sendUnaryData<never>, error: unknown): void {
  const mapped = toGrpcError(error);
  if (mapped.code === status.INTERNAL) {
    const message = error instanceof Error ? error.message : String(error);
    logger.error({ err: excerpt(message, MAX_LOGGED_MESSAGE_LENGTH) }, "gRPC call failed");
  }
  const metadata = new Metadata();
  metadata.set("racksmith-error-code", mapped.errorCode);
  callback({ code: mapped.code, details: mapped.details, metadata });
}
