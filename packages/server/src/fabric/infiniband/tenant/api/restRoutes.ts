import type { FastifyInstance } from "fastify";
import { idParams, MAX_ID_LENGTH, type RestRoutes, tenantScopeOf } from "../../../../api/index.js";
import type { CreateIbPartitionInput } from "../partitions/index.js";
import type { InfiniBandApi } from "./infinibandApi.js";

const errors = { 400: { $ref: "Error#" }, 404: { $ref: "Error#" }, 412: { $ref: "Error#" } };
const tags = ["infiniband"];

const partitionSchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    name: { type: "string" },
    tenantOrg: { type: "string" },
    pkey: { type: "string" },
    requestedPkey: { type: ["string", "null"] },
    state: { type: "string" },
    cause: { type: ["string", "null"] },
    createdAt: { type: "string" },
    deletedAt: { type: ["string", "null"] },
  },
} as const;

/** `/api/v1/ib-partitions` (tenant partitions), `/api/v1/ib-fabric/health`, `/api/v1/ufm/browse` (GET only). */
export function infinibandRestRoutes(api: InfiniBandApi): RestRoutes {
  return (app: FastifyInstance) => {
    app.post<{ Body: CreateIbPartitionInput }>(
      "/api/v1/ib-partitions",
      {
        schema: {
          summary:
            "Create a tenant InfiniBand partition (a pkey from the configured ranges, or the requested one)",
          tags,
          body: {
            type: "object",
            required: ["name", "tenantOrg"],
            additionalProperties: false,
            properties: {
              name: { type: "string", maxLength: MAX_ID_LENGTH },
              tenantOrg: { type: "string", maxLength: MAX_ID_LENGTH },
              // 0x-hex or decimal, at most 0x7fff.
              pkey: { anyOf: [{ type: "string", maxLength: 16 }, { type: "integer" }] },
            },
          },
          response: { 201: partitionSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await api.createPartition(request.body, tenantScopeOf(request.caller))),
    );
    app.get<{ Querystring: { tenantOrg?: string } }>(
      "/api/v1/ib-partitions",
      {
        schema: {
          summary: "Tenant InfiniBand partitions, optionally of one tenant",
          tags,
          querystring: {
            type: "object",
            properties: { tenantOrg: { type: "string", maxLength: MAX_ID_LENGTH } },
          },
          response: {
            200: { type: "object", properties: { partitions: { type: "array", items: partitionSchema } } },
            ...errors,
          },
        },
      },
      async (request) => ({
        partitions: await api.listPartitions(request.query, tenantScopeOf(request.caller)),
      }),
    );
    app.get<{ Params: { id: string } }>(
      "/api/v1/ib-partitions/:id",
      {
        schema: {
          summary: "One InfiniBand partition",
          tags,
          params: idParams,
          response: { 200: partitionSchema, ...errors },
        },
      },
      async (request) => api.getPartition(request.params.id, tenantScopeOf(request.caller)),
    );
    app.delete<{ Params: { id: string } }>(
      "/api/v1/ib-partitions/:id",
      {
        schema: {
          summary:
            "Delete a partition (refused while a live instance uses it); its GUIDs are unbound, its pkey freed",
          tags,
          params: idParams,
          response: { 202: partitionSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.code(202).send(await api.deletePartition(request.params.id, tenantScopeOf(request.caller))),
    );
    app.get(
      "/api/v1/ib-fabric/health",
      { schema: { summary: "The IB fabric monitor's last view of the fabric", tags } },
      async () => ({ health: await api.fabricHealth() }),
    );
    app.get<{ Querystring: { path?: string } }>(
      "/api/v1/ufm/browse",
      {
        schema: {
          summary: "Read-only raw view of a UFM resource (credentials stay in the service)",
          tags,
          querystring: { type: "object", properties: { path: { type: "string" } } },
        },
      },
      async (request) => api.browse(request.query.path ?? ""),
    );
  };
}
