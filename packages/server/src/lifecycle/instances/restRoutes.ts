import type { FastifyInstance } from "fastify";
import { idParams, type RestRoutes, tenantScopeOf } from "../../api/index.js";
import type { ReleaseIssue } from "../tables.js";
import type { AllocateInstanceInput, FindInstancesQuery, InstanceService } from "./instanceService.js";
import { allocateBody, findQuery, instanceSchema, releaseBody, updateConfigBody } from "./schemas.js";

const errors = { 400: { $ref: "Error#" }, 404: { $ref: "Error#" }, 412: { $ref: "Error#" } };
const tags = ["instances"];

/** `/api/v1/instances`: allocate, list, read, release and reconfigure tenant instances. */
export function instancesRestRoutes(service: InstanceService): RestRoutes {
  return (app: FastifyInstance) => {
    app.post<{ Body: AllocateInstanceInput }>(
      "/api/v1/instances",
      {
        schema: {
          summary: "Allocate a Ready host (the named one, or any free one of an instance type) to a tenant",
          tags,
          body: allocateBody,
          response: { 201: instanceSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await service.allocate(request.body, tenantScopeOf(request.caller))),
    );

    app.get<{ Querystring: FindInstancesQuery }>(
      "/api/v1/instances",
      {
        schema: {
          summary: "Instances, newest first, optionally of one tenant or host; terminated ones when asked",
          tags,
          querystring: findQuery,
          response: {
            200: { type: "object", properties: { instances: { type: "array", items: instanceSchema } } },
            ...errors,
          },
        },
      },
      async (request) => ({ instances: await service.find(request.query, tenantScopeOf(request.caller)) }),
    );

    app.get<{ Params: { id: string } }>(
      "/api/v1/instances/:id",
      {
        schema: {
          summary: "One instance with its status (derived now from its host's lifecycle)",
          tags,
          params: idParams,
          response: { 200: instanceSchema, ...errors },
        },
      },
      async (request) => service.get(request.params.id, tenantScopeOf(request.caller)),
    );

    app.post<{ Params: { id: string }; Body: { issue?: ReleaseIssue } | null | undefined }>(
      "/api/v1/instances/:id/release",
      {
        schema: {
          summary: "Ask for the instance's termination: the host is isolated, cleaned and returned to Ready",
          tags,
          params: idParams,
          body: releaseBody,
          response: { 202: instanceSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .code(202)
          .send(await service.release(request.params.id, request.body?.issue, tenantScopeOf(request.caller))),
    );

    app.put<{ Params: { id: string }; Body: { config: unknown; ifVersionMatch?: number } }>(
      "/api/v1/instances/:id/config",
      {
        schema: {
          summary: "Replace the instance's config (with ifVersionMatch: only if still at that version)",
          tags,
          params: idParams,
          body: updateConfigBody,
          response: { 200: instanceSchema, ...errors },
        },
      },
      async (request) =>
        service.updateConfig(
          request.params.id,
          request.body.config,
          request.body.ifVersionMatch,
          tenantScopeOf(request.caller),
        ),
    );
  };
}
