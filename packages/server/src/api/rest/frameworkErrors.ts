import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type {
  ConnectionError,
  FastifyError,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from "fastify";
import { toHttpError } from "../errors.js";
import { invalidRequest } from "./invalidRequest.js";

/** The longest path parameter the router matches; a longer one is answered 414 before any schema runs. */
export const MAX_PATH_PARAMETER_LENGTH = 2048;

/**
 * The errors fastify raises before a route is found, in the service's error format: a path that does not
 * decode (`%ED%A0%80`: percent-encoded, not UTF-8) is 400, a path parameter over the router's limit 414.
 * Neither message quotes the path.
 */
function answerFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error.code === "FST_ERR_BAD_URL") {
    const { statusCode, body } = toHttpError(
      invalidRequest("url", "url", "the path is not percent-encoded UTF-8"),
    );
    return reply.code(statusCode).send(body);
  }
  if (error.code === "FST_ERR_MAX_PARAM_LENGTH") {
    const problem = `a path parameter is longer than ${MAX_PATH_PARAMETER_LENGTH} characters`;
    return reply.code(414).send(toHttpError(invalidRequest("url", "url", problem)).body);
  }
  const { statusCode, body } = toHttpError(error);
  return reply.code(statusCode).send(body);
}

// fastify types this option as generic over every route's types; the handler uses none of them.
export const frameworkErrors = answerFrameworkError as NonNullable<FastifyServerOptions["frameworkErrors"]>;

/** Node's HTTP parser errors: what status answers each (fastify's choice), the rest are 400. */
const CLIENT_ERROR_STATUS: Record<string, number> = {
  ERR_HTTP_REQUEST_TIMEOUT: 408,
  HPE_HEADER_OVERFLOW: 431,
};
const CLIENT_ERROR_PROBLEM: Record<number, string> = {
  400: "is not valid HTTP/1.1",
  408: "did not arrive in time",
  431: "has headers larger than the server accepts",
};

/**
 * A request Node's HTTP parser refused (no fastify request exists): answered on the socket in the service's
 * error format, as fastify's own handler does in its format, and the connection closed.
 */
export function clientErrorHandler(error: ConnectionError, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const statusCode = CLIENT_ERROR_STATUS[error.code] ?? 400;
  const body = JSON.stringify(
    toHttpError(invalidRequest("request", "request", CLIENT_ERROR_PROBLEM[statusCode] ?? "is not valid"))
      .body,
  );
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
