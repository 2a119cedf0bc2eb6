import { RacksmithError } from "@racksmith/core";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import type { ApiContext } from "../context.js";
import { type ApiErrorBody, toHttpError } from "../errors.js";
import { childPath, excerpt, fieldPath } from "../input/index.js";
import { invalidRequest, type RequestLocation } from "./invalidRequest.js";

/** How much of a framework message (which may quote the request: a JSON parse error does) is kept. */
const FRAMEWORK_MESSAGE_LENGTH = 200;

type HttpError = { statusCode: number; body: ApiErrorBody };
type ValidationProblem = NonNullable<FastifyError["validation"]>[number];

/** The first schema violation as `invalid_request`, naming the field: `body.interfaces[0].device: …`. */
export function validationFailure(
  location: RequestLocation,
  problem: ValidationProblem | undefined,
): HttpError {
  const path = fieldPath(location, problem?.instancePath ?? "");
  const message = problem?.message ?? "is not valid";
  const { missingProperty, additionalProperty } = problem?.params ?? {};
  // ajv names the key a `propertyNames` schema refused beside the error, not in its pointer.
  const { propertyName } = (problem ?? {}) as { propertyName?: unknown };
  const invalid =
    typeof additionalProperty === "string"
      ? invalidRequest(location, childPath(path, additionalProperty), "is not a known property")
      : typeof missingProperty === "string"
        ? invalidRequest(location, childPath(path, missingProperty), message)
        : typeof propertyName === "string"
          ? invalidRequest(location, childPath(path, propertyName), `key ${message}`)
          : invalidRequest(location, path, message);
  return toHttpError(invalid);
}

/**
 * fastify's own request errors (`FST_ERR_CTP_*`: a body over the route's `bodyLimit`, malformed JSON, an
 * unsupported content type) keep their 4xx status, in the service's error format, instead of `internal`.
 */
export function requestError(error: FastifyError, request: FastifyRequest): HttpError | undefined {
  const statusCode = error.statusCode ?? 500;
  if (!error.code?.startsWith("FST_") || statusCode < 400 || statusCode >= 500) return undefined;
  const limitBytes = request.routeOptions.bodyLimit;
  const route = excerpt(request.routeOptions.url ?? request.url, FRAMEWORK_MESSAGE_LENGTH);
  const racksmith =
    statusCode === 413
      ? // RESOURCE_EXHAUSTED, as gRPC answers a message over its limit; the HTTP status stays the precise 413.
        new RacksmithError(
          "request_too_large",
          "RESOURCE_EXHAUSTED",
          `request body is larger than ${limitBytes} bytes, the limit of ${request.method} ${route}`,
          { details: { limitBytes } },
        )
      : new RacksmithError(
          "invalid_request",
          "INVALID_ARGUMENT",
          excerpt(error.message, FRAMEWORK_MESSAGE_LENGTH),
          {
            details: { location: "body" },
          },
        );
  return { statusCode, body: toHttpError(racksmith).body };
}

/** The REST error handler: schema violations, fastify's request errors, then any error as `toHttpError` maps it. */
export function restErrorHandler(context: ApiContext) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { statusCode, body } = error.validation
      ? validationFailure((error.validationContext ?? "request") as RequestLocation, error.validation[0])
      : (requestError(error, request) ?? toHttpError(error));
    if (statusCode >= 500) {
      context.logger.error(
        { err: error.message, method: request.method, url: excerpt(request.url, FRAMEWORK_MESSAGE_LENGTH) },
        "request failed",
      );
    }
    return reply.code(statusCode).send(body);
  };
}
