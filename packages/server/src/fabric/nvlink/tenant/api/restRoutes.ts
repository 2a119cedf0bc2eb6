import type { FastifyInstance } from "fastify";
import { idParams, type RestRoutes, tenantScopeOf } from "../../../../api/index.js";
import type { CreateLogicalPartitionInput } from "../partitions/index.js";
import type { NvLinkApi } from "./nvlinkApi.js";
import { browseQuery, createBody, listQuery, logicalPartitionSchema } from "./schemas.js";

const errors = {
  400: { $ref: "Error#" },
  404: { $ref: "Error#" },
  412: { $ref: "Error#" },
  501: { $ref: "Error#" },
  503: { $ref: "Error#" },
};
const tags = ["nvlink"];
const partition = { $ref: "NvLinkLogicalPartition#" };

/** `/api/v1/nvlink-partitions` (tenants' logical partitions) and `/api/v1/nmxm/browse` (read-only NMX-M view). */
export function nvlinkRestRoutes(api: NvLinkApi): RestRoutes {
  return (app: FastifyInstance) => {
    app.addSchema(logicalPartitionSchema);

    app.post<{ Body: CreateLogicalPartitionInput }>(
      "/api/v1/nvlink-partitions",
      {
        schema: {
          summary: "Create a tenant's NVLink logical partition (Ready at once)",
          tags,
          body: createBody,
          response: { 201: partition, ...errors },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await api.create(request.body, tenantScopeOf(request.caller))),
    );

    app.get<{ Querystring: { tenantOrg?: string } }>(
      "/api/v1/nvlink-partitions",
      {
        schema: {
          summary: "NVLink logical partitions, optionally of one tenant",
          tags,
          querystring: listQuery,
          response: {
            200: { type: "object", properties: { partitions: { type: "array", items: partition } } },
            ...errors,
          },
        },
      },
      async (request) => ({ partitions: await api.list(request.query, tenantScopeOf(request.caller)) }),
    );

    app.get<{ Params: { id: string } }>(
      "/api/v1/nvlink-partitions/:id",
      {
        schema: {
          summary: "One logical partition with its physical partition per domain and their GPUs",
          tags,
          params: idParams,
          response: { 200: partition, ...errors },
        },
      },
      async (request) => api.get(request.params.id, tenantScopeOf(request.caller)),
    );

    app.delete<{ Params: { id: string } }>(
      "/api/v1/nvlink-partitions/:id",
      {
        schema: {
          summary: "Delete a logical partition no live instance uses (its NMX-M partitions are removed)",
          tags,
          params: idParams,
          response: { 202: partition, ...errors },
        },
      },
      async (request, reply) =>
        reply.code(202).send(await api.delete(request.params.id, tenantScopeOf(request.caller))),
    );

    app.get<{ Querystring: { path: string } }>(
      "/api/v1/nmxm/browse",
      {
        schema: {
          summary: "Raw JSON of an NMX-M path (GET only; credentials stay in the service)",
          tags,
          querystring: browseQuery,
          response: { ...errors },
        },
      },
      async (request) => ({ path: request.query.path, body: await api.browse(request.query.path) }),
    );
  };
}
