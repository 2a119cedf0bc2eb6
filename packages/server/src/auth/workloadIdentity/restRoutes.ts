import type { FastifyInstance } from "fastify";
import { idString, type RestRoutes } from "../../api/index.js";
import type { WorkloadIdentities } from "./workloadIdentities.js";

const tags = ["auth"];
const orgParams = { type: "object", required: ["org"], properties: { org: idString } } as const;

/** Each tenant's public OIDC discovery document and JWKS: what verifies its workloads' JWT-SVIDs. */
export function workloadIdentityRestRoutes(identities: WorkloadIdentities): RestRoutes {
  return (app: FastifyInstance) => {
    app.get<{ Params: { org: string } }>(
      "/api/v1/tenants/:org/.well-known/openid-configuration",
      {
        schema: {
          summary: "The OIDC discovery document of a tenant's workload identities (JWT-SVIDs)",
          tags,
          params: orgParams,
          response: { 200: { type: "object", additionalProperties: true }, 400: { $ref: "Error#" } },
        },
      },
      async (request) => identities.discovery(request.params.org),
    );

    app.get<{ Params: { org: string } }>(
      "/api/v1/tenants/:org/jwks.json",
      {
        schema: {
          summary: "The JWKS verifying a tenant's workload identities (JWT-SVIDs)",
          tags,
          params: orgParams,
          response: {
            200: {
              type: "object",
              properties: { keys: { type: "array", items: { type: "object", additionalProperties: true } } },
            },
            400: { $ref: "Error#" },
          },
        },
      },
      async (request) => identities.jwks(request.params.org),
    );
  };
}
