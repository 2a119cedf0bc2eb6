import { ObjectNotFoundError, UnknownObjectTypeError } from "@racksmith/core/engine";
import type { FastifyInstance } from "fastify";
import type { ApiContext } from "../context.js";
import { MAX_ID_LENGTH } from "../input/index.js";
import { openApiDocument } from "./openapi.js";
import { objectParams } from "./schemas.js";

const errorResponses = { 400: { $ref: "Error#" }, 404: { $ref: "Error#" }, 503: { $ref: "Error#" } };

function knownType(context: ApiContext, objectType: string): void {
  const known = context.objectTypes();
  if (!known.includes(objectType)) throw new UnknownObjectTypeError(objectType, known);
}

/** Operational endpoints: liveness, readiness, metrics, the OpenAPI document. */
export function registerOperationalRoutes(
  app: FastifyInstance,
  context: ApiContext,
  routes: Parameters<typeof openApiDocument>[0],
): void {
  app.get(
    "/healthz",
    {
      schema: {
        summary: "Liveness: the process is up",
        tags: ["operations"],
        response: { 200: { type: "object", properties: { status: { type: "string" } } } },
      },
    },
    async () => ({ status: "ok" }),
  );

  app.get(
    "/readyz",
    {
      schema: {
        summary: "Readiness: the database is reachable and migrated",
        tags: ["operations"],
        response: {
          200: { $ref: "Readiness#" },
          503: { $ref: "Readiness#" },
        },
      },
    },
    async (_request, reply) => {
      const checks = await context.readiness();
      const ready = checks.every((check) => check.ok);
      return reply.code(ready ? 200 : 503).send({ status: ready ? "ready" : "not ready", checks });
    },
  );

  app.get(
    "/metrics",
    { schema: { summary: "Prometheus metrics", tags: ["operations"] } },
    async (_request, reply) => {
      reply.type(context.metrics.contentType);
      return context.metrics.metrics();
    },
  );

  app.get("/openapi.json", { schema: { hide: true } }, async () => openApiDocument(routes));
}

/** The v1 API: the same reads as the gRPC service. */
export function registerApiRoutes(app: FastifyInstance, context: ApiContext): void {
  app.get(
    "/api/v1/version",
    {
      schema: {
        summary: "The running core, plugin API and loaded plugins",
        tags: ["core"],
        response: { 200: { $ref: "Version#" } },
      },
    },
    async () => context.version(),
  );

  app.get<{ Params: { objectType: string; objectId: string }; Querystring: { historyLimit: number } }>(
    "/api/v1/objects/:objectType/:objectId",
    {
      schema: {
        summary: "One object's lifecycle state, last outcome, SLA and recent history",
        tags: ["state"],
        params: objectParams,
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: { historyLimit: { type: "integer", minimum: 0, maximum: 250, default: 20 } },
        },
        response: { 200: { $ref: "ObjectState#" }, ...errorResponses },
      },
    },
    async (request) => {
      const { objectType, objectId } = request.params;
      knownType(context, objectType);
      const view = await context.getObjectState(objectType, objectId, request.query.historyLimit);
      if (!view) throw new ObjectNotFoundError(objectType, objectId);
      return view;
    },
  );

  app.get<{ Params: { objectType: string }; Querystring: { state?: string; limit: number; after?: string } }>(
    "/api/v1/objects/:objectType",
    {
      schema: {
        summary: "Objects of one type, optionally in one state, in id order",
        tags: ["state"],
        params: {
          type: "object",
          required: ["objectType"],
          properties: { objectType: objectParams.properties.objectType },
        },
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            state: { type: "string", minLength: 1, maxLength: MAX_ID_LENGTH },
            limit: { type: "integer", minimum: 1, maximum: 1000, default: 100 },
            after: objectParams.properties.objectId,
          },
        },
        response: {
          200: {
            type: "object",
            properties: {
              objects: { type: "array", items: { $ref: "ObjectState#" } },
              nextAfter: { type: ["string", "null"] },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { objectType } = request.params;
      knownType(context, objectType);
      const { state, limit, after } = request.query;
      const objects = await context.listObjects(objectType, {
        limit,
        ...(state ? { state } : {}),
        ...(after ? { after } : {}),
      });
      return { objects, nextAfter: objects.length === limit ? (objects.at(-1)?.objectId ?? null) : null };
    },
  );

  app.post<{ Params: { objectType: string; objectId: string } }>(
    "/api/v1/objects/:objectType/:objectId/enqueue",
    {
      schema: {
        summary: "Handle an object as soon as possible (idempotent)",
        tags: ["state"],
        params: objectParams,
        response: {
          202: { type: "object", properties: { enqueued: { type: "boolean" } } },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { objectType, objectId } = request.params;
      knownType(context, objectType);
      if (!(await context.getObjectState(objectType, objectId, 0)))
        throw new ObjectNotFoundError(objectType, objectId);
      await context.enqueue(objectType, objectId);
      return reply.code(202).send({ enqueued: true });
    },
  );
}
