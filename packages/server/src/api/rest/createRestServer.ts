import { RacksmithError } from "@racksmith/core";
import Fastify, { type FastifyInstance } from "fastify";
import type { AccessGate } from "../access.js";
import type { ApiContext } from "../context.js";
import { toHttpError } from "../errors.js";
import { excerpt } from "../input/index.js";
import { requestIdOf } from "../requestId.js";
import { applyAccessGate } from "./accessHooks.js";
import { applyDefaultLimits } from "./defaultLimits.js";
import { restErrorHandler } from "./errorHandler.js";
import { clientErrorHandler, frameworkErrors, MAX_PATH_PARAMETER_LENGTH } from "./frameworkErrors.js";
import { collectRoutes } from "./openapi.js";
import { registerApiRoutes, registerOperationalRoutes } from "./routes.js";
import { SHARED_SCHEMAS } from "./schemas.js";
import { rejectUnstorableText } from "./storableText.js";
import { requestValidatorCompiler } from "./validatorCompiler.js";

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

/** TLS for the REST listener: PEM key and certificate chain, and a CA client certificates must chain to. */
export interface RestTls {
  key: Buffer;
  cert: Buffer;
  clientCa?: Buffer;
}

export interface RestServerOptions {
  /** Serve HTTPS instead of HTTP (`server.tls`). */
  tls?: RestTls;
  /** Who may call what: every route must have a rule, every request is admitted by it first. */
  gate: AccessGate;
  /** How long `close()` lets requests in flight finish before it closes their connections (default 10 s). */
  closeGraceMs?: number;
}

/** The REST API (fastify): JSON schemas on every route, errors mapped once, an OpenAPI document. */
export async function createRestServer(
  context: ApiContext,
  modules: readonly RestRoutes[] = [],
  options: RestServerOptions,
): Promise<FastifyInstance> {
  const { closeGraceMs = 10_000, gate } = options;
  const https = options.tls
    ? {
        https: {
          key: options.tls.key,
          cert: options.tls.cert,
          ...(options.tls.clientCa
            ? { ca: options.tls.clientCa, requestCert: true, rejectUnauthorized: true }
            : {}),
        },
      }
    : {};
  // An HTTPS server is the same fastify instance to every route; only the listener differs.
  const app = Fastify({
    ...https,
    logger: false,
    frameworkErrors,
    clientErrorHandler,
    // Above every path parameter's schema limit, so the schema answers first and names the field.
    routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    // The audit log's request id: the caller's x-request-id when plain, else unique across replicas.
    genReqId: (request) => requestIdOf(request.headers["x-request-id"]),
  }) as unknown as FastifyInstance;
  app.setValidatorCompiler(requestValidatorCompiler(() => app.getSchemas()));
  for (const schema of [...SHARED_SCHEMAS, readinessSchema]) app.addSchema(schema);
  // Limits first: the OpenAPI document collects each route's schema as this hook leaves it.
  applyDefaultLimits(app);
  const routes = collectRoutes(app);
  applyAccessGate(app, gate);
  rejectUnstorableText(app);

  app.setErrorHandler(restErrorHandler(context));
  app.setNotFoundHandler((request, reply) => {
    const { statusCode, body } = toHttpError(
      new RacksmithError(
        "route_not_found",
        "NOT_FOUND",
        `no route ${request.method} ${excerpt(request.url, 200)}`,
      ),
    );
    return reply.code(statusCode).send(body);
  });
  app.addHook("onResponse", async (request, reply) => {
    context.logger.debug(
      {
        method: request.method,
        url: excerpt(request.url, 200),
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
