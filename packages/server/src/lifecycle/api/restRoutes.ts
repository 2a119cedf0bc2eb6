import type { FastifyInstance } from "fastify";
import { idParams, type RestRoutes } from "../../api/index.js";
import { type LifecycleApiDeps, requestForceDelete } from "./forceDelete.js";

const errors = { 400: { $ref: "Error#" }, 404: { $ref: "Error#" } };

/** Managed-host lifecycle administration: `POST /api/v1/machines/:id/force-delete`. */
export function lifecycleRestRoutes(deps: LifecycleApiDeps): RestRoutes {
  return (app: FastifyInstance) => {
    app.post<{ Params: { id: string } }>(
      "/api/v1/machines/:id/force-delete",
      {
        schema: {
          summary:
            "Remove a managed host (a DPU id: its host) with its DPUs, instance and records, whatever its state",
          tags: ["machines"],
          params: idParams,
          response: {
            202: { type: "object", required: ["hostId"], properties: { hostId: { type: "string" } } },
            ...errors,
          },
        },
      },
      async (request, reply) => reply.code(202).send(await requestForceDelete(deps, request.params.id)),
    );
  };
}
