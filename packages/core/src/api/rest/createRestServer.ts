import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import type { ApiContext } from "../context.js";
import { toHttpError } from "../errors.js";
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

/** The REST API (fastify): JSON schemas on every route, errors mapped once, an OpenAPI document. */
/** A feature's REST routes, registered after the core ones (same error handling, same OpenAPI document). */
export type RestRoutes = (app: FastifyInstance) => void;

export async function createRestServer(
  context: ApiContext,
  modules: readonly RestRoutes[] = [],
): Promise<FastifyInstance> {
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
      return reply.code(400).send({
        error: {
          code: "invalid_request",
          status: "INVALID_ARGUMENT",
          message: `${where}${field ? `.${field}` : ""}: ${first?.message ?? error.message}`,
          details: { location: where, ...(field ? { field } : {}) },
        },
      });
    }
    const { statusCode, body } = toHttpError(error);
    if (statusCode >= 500) {
      context.logger.error(
        { err: error.message, method: request.method, url: request.url },
        "request failed",
      );
    }
    return reply.code(statusCode).send(body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({
      error: {
        code: "route_not_found",
        status: "NOT_FOUND",
        message: `no route ${request.method} ${request.url}`,
        details: {},
      },
    }),
  );
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

  registerOperationalRoutes(app, context, routes);
  registerApiRoutes(app, context);
  for (const register of modules) register(app);
  await app.ready();
  return app;
}
