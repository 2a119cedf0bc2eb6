import type { FastifyInstance } from "fastify";
import { idParams, type RestRoutes } from "../../api/index.js";
import type { SkuService } from "../skuService.js";
import {
  assignBody,
  createBody,
  generateBody,
  hostSkuSchema,
  skuSchema,
  skuSummarySchema,
} from "./schemas.js";

const errors = {
  400: { $ref: "Error#" },
  404: { $ref: "Error#" },
  409: { $ref: "Error#" },
  412: { $ref: "Error#" },
};
const tags = ["sku"];
const sku = { $ref: "Sku#" };
const hostSku = { $ref: "HostSku#" };

/** `/api/v1/skus` (SKUs and their assignment) and `/api/v1/machines/:id/sku` (a host's SKU, verification). */
export function skuRestRoutes(service: SkuService): RestRoutes {
  return (app: FastifyInstance) => {
    app.addSchema(skuSummarySchema);
    app.addSchema(skuSchema);
    app.addSchema(hostSkuSchema);

    app.get(
      "/api/v1/skus",
      {
        schema: {
          summary: "Every SKU with the hosts assigned to it (documents left out)",
          tags,
          response: {
            200: { type: "object", properties: { skus: { type: "array", items: { $ref: "SkuSummary#" } } } },
            ...errors,
          },
        },
      },
      async () => ({ skus: await service.list() }),
    );

    app.post<{ Body: unknown }>(
      "/api/v1/skus",
      {
        schema: {
          summary:
            "Create a SKU from its document (as `sku generate` shows it); matching hosts without one get it",
          tags,
          body: createBody,
          response: { 201: sku, ...errors },
        },
      },
      async (request, reply) => reply.code(201).send(await service.create(request.body)),
    );

    app.post<{ Body: { machineId: string; id?: string; description?: string } }>(
      "/api/v1/skus/generate",
      {
        schema: {
          summary: "The SKU a host's inventory describes (nothing is stored)",
          tags,
          body: generateBody,
          response: { 200: { type: "object", additionalProperties: true }, ...errors },
        },
      },
      async (request) => {
        const { machineId, ...naming } = request.body;
        return service.generate(machineId, naming);
      },
    );

    app.get<{ Params: { id: string } }>(
      "/api/v1/skus/:id",
      {
        schema: {
          summary: "One SKU with its document and hosts",
          tags,
          params: idParams,
          response: { 200: sku, ...errors },
        },
      },
      async (request) => service.get(request.params.id),
    );

    app.delete<{ Params: { id: string } }>(
      "/api/v1/skus/:id",
      {
        schema: {
          summary: "Delete a SKU no host is assigned to",
          tags,
          params: idParams,
          response: { 200: sku, ...errors },
        },
      },
      async (request) => service.delete(request.params.id),
    );

    app.post<{ Params: { id: string }; Body: { machineIds: string[] } }>(
      "/api/v1/skus/:id/assign",
      {
        schema: {
          summary: "Assign the SKU to hosts (replacing theirs); each is verified against it",
          tags,
          params: idParams,
          body: assignBody,
          response: { 200: sku, ...errors },
        },
      },
      async (request) => service.assign(request.params.id, request.body.machineIds),
    );

    app.get<{ Params: { id: string } }>(
      "/api/v1/machines/:id/sku",
      {
        schema: {
          summary: "A host's SKU, its last BOM verdict and its state",
          tags,
          params: idParams,
          response: { 200: hostSku, ...errors },
        },
      },
      async (request) => service.hostSku(request.params.id),
    );

    app.delete<{ Params: { id: string } }>(
      "/api/v1/machines/:id/sku",
      {
        schema: {
          summary: "Remove a host's SKU; BOM validation looks for one again",
          tags,
          params: idParams,
          response: { 200: hostSku, ...errors },
        },
      },
      async (request) => service.unassign(request.params.id),
    );

    app.post<{ Params: { id: string } }>(
      "/api/v1/machines/:id/sku/verify",
      {
        schema: {
          summary: "Verify a Ready or BOM-validating host against its SKU again, from a fresh inventory",
          tags,
          params: idParams,
          response: { 202: hostSku, ...errors },
        },
      },
      async (request, reply) => reply.code(202).send(await service.verify(request.params.id)),
    );
  };
}
