import { RacksmithError } from "@racksmith/core";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from "fastify";
import type { ApiContext } from "../context.js";
import { type ApiErrorBody, toHttpError } from "../errors.js";
import { collectRoutes } from "./openapi.js";
import { registerApiRoutes, registerOperationalRoutes } from "./routes.js";
import { SHARED_SCHEMAS } from "./schemas.js";

const readinessSchema = {
  $id: "Readiness",
  type: "object",
  properties: {
    status: { type: "string" },
    checks: {
      type: "array",
      items: {
        type: "object",
        properties: { name: { type: "string" }, ok: { type: "boolean" }, detail: { type: "string" } },
      },
    },
  },
} as const;

/** A feature's REST routes, registered after the core ones (same error handling, same OpenAPI document). */
export type RestRoutes = (app: FastifyInstance) => void;

export interface RestServerOptions {
  /** How long `close()` lets requests in flight finish before it closes their connections (default 10 s). */
  closeGraceMs?: number;
}

/**
 * fastify's own request errors (`FST_ERR_CTP_*`: a body over the route's `bodyLimit`, malformed JSON, an
 * unsupported content type) keep their 4xx status, in the service's error format, instead of `internal`.
 */
function requestError(
  error: FastifyError,
  request: FastifyRequest,
): { statusCode: number; body: ApiErrorBody } | undefined {
  const statusCode = error.statusCode ?? 500;
  if (!error.code?.startsWith("FST_") || statusCode < 400 || statusCode >= 500) return undefined;
  const limitBytes = request.routeOptions.bodyLimit;
  const racksmith =
    statusCode === 413
      ? // RESOURCE_EXHAUSTED, as gRPC answers a message over its limit; the HTTP status stays the precise 413.
        new RacksmithError(
          "request_too_large",
          "RESOURCE_EXHAUSTED",
          `request body is larger than ${limitBytes} bytes, the limit of ${request.method} ${request.routeOptions.url ?? request.url}`,
          { details: { limitBytes } },
        )
      : new RacksmithError("invalid_request", "INVALID_ARGUMENT", error.message, {
          details: { location: "body" },
        });
  return { statusCode, body: toHttpError(racksmith).body };
}

/** The REST API (fastify): JSON schemas on every route, errors mapped once, an OpenAPI document. */
export async function createRestServer(
  context: ApiContext,
  modules: readonly RestRoutes[] = [],
  options: RestServerOptions = {},
): Promise<FastifyInstance> {
  const { closeGraceMs = 10_000 } = options;
  const app = Fastify({
    logger: false,
    ajv: { customOptions: { coerceTypes: "array", removeAdditional: false } },
  });
  for (const schema of [...SHARED_SCHEMAS, readinessSchema]) app.addSchema(schema);
  const routes = collectRoutes(app);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) {
      const where = error.validationContext ?? "request";
      const first = error.validation[0];
      const field = first?.instancePath
        ? first.instancePath.slice(1).replace(/\//g, ".")
        : String(first?.params?.missingProperty ?? "");
      const invalid = new RacksmithError(
        "invalid_request",
        "INVALID_ARGUMENT",
        `${where}${field ? `.${field}` : ""}: ${first?.message ?? error.message}`,
        { details: { location: where, ...(field ? { field } : {}) } },
      );
      const { statusCode, body } = toHttpError(invalid);
      return reply.code(statusCode).send(body);
    }
    const { statusCode, body } = requestError(error, request) ?? toHttpError(error);
    if (statusCode >= 500) {
      context.logger.error(
        { err: error.message, method: request.method, url: request.url },
        "request failed",
      );
    }
    return reply.code(statusCode).send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const { statusCode, body } = toHttpError(
      new RacksmithError("route_not_found", "NOT_FOUND", `no route ${request.method} ${request.url}`),
    );
    return reply.code(statusCode).send(body);
  });
  app.addHook("onResponse", async (request, reply) => {
    context.logger.debug(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      "http request",
    );
  });

  // Graceful close. fastify closes only the connections idle when `close()` starts (and answers 503 to new
  // requests); a keep-alive connection whose request is in flight would stay open after its response until
  // the client drops it (keepAliveTimeout 72 s). While closing, every response says `Connection: close` (Node
  // ends the socket after it) and a connection that turns idle is closed; whatever still runs after the
  // grace is cut off, so `close()` is bounded.
  let closing = false;
  let forceClose: NodeJS.Timeout | undefined;
  app.addHook("preClose", async () => {
    closing = true;
    forceClose = setTimeout(() => app.server.closeAllConnections(), closeGraceMs).unref();
  });
  app.addHook("onClose", async () => clearTimeout(forceClose));
  app.addHook("onSend", async (_request, reply, payload) => {
    if (closing) reply.header("connection", "close");
    return payload;
  });
  app.addHook("onResponse", async () => {
    if (closing) app.server.closeIdleConnections();
  });

  registerOperationalRoutes(app, context, routes);
  registerApiRoutes(app, context);
  for (const register of modules) register(app);
  await app.ready();
  return app;
}
