import type { FastifyInstance } from "fastify";
import { idParams, type RestRoutes } from "../../api/index.js";
import type { ExploreNowRequest, SiteExplorer } from "../siteExplorer.js";
import {
  addressParams,
  endpointDetailSchema,
  endpointSummarySchema,
  exploreNowSchema,
  machineDetailSchema,
  machineSchema,
  managedHostSchema,
} from "./schemas.js";

const errors = { 400: { $ref: "Error#" }, 404: { $ref: "Error#" } };
const tags = ["site-explorer"];
const machineTags = ["machines"];

/** `/api/v1/site-explorer/…` and `/api/v1/machines`. `requestRun` asks the exploration loop to start soon. */
export function siteExplorerRestRoutes(explorer: SiteExplorer, requestRun: () => Promise<void>): RestRoutes {
  return (app: FastifyInstance) => {
    app.get(
      "/api/v1/site-explorer/endpoints",
      {
        schema: {
          summary: "Every explored BMC endpoint: vendor, driver, last error, report version, findings",
          tags,
          response: {
            200: {
              type: "object",
              properties: { endpoints: { type: "array", items: endpointSummarySchema } },
            },
          },
        },
      },
      async () => ({ endpoints: await explorer.listEndpoints() }),
    );

    app.get<{ Params: { address: string } }>(
      "/api/v1/site-explorer/endpoints/:address",
      {
        schema: {
          summary: "One endpoint with its full exploration report (never a credential)",
          tags,
          params: addressParams,
          response: { 200: endpointDetailSchema, ...errors },
        },
      },
      async (request) => explorer.getEndpoint(request.params.address),
    );

    app.post<{ Params: { address: string }; Body: ExploreNowRequest | null | undefined }>(
      "/api/v1/site-explorer/endpoints/:address/explore",
      {
        schema: {
          summary: "Explore one address now; the report is returned, not stored, and the BMC is not changed",
          description:
            "Stored credentials are used only for an address the inventory knows (with the MAC it knows there). Any other address is explored with the `credentials` given here, or anonymously.",
          tags,
          params: addressParams,
          body: {
            type: ["object", "null"],
            additionalProperties: false,
            properties: {
              mac: {
                type: "string",
                maxLength: 64,
                description:
                  "BMC MAC of an address the inventory does not know (never selects stored credentials)",
              },
              credentials: {
                type: "object",
                additionalProperties: false,
                required: ["username", "password"],
                description: "Your own login for this BMC; sent only to this address",
                properties: {
                  username: { type: "string", minLength: 1, maxLength: 256 },
                  password: { type: "string", minLength: 1, maxLength: 256 },
                },
              },
            },
          },
          response: { 200: exploreNowSchema, ...errors },
        },
      },
      async (request) => explorer.exploreNow(request.params.address, request.body ?? {}),
    );

    app.post<{ Params: { address: string } }>(
      "/api/v1/site-explorer/endpoints/:address/re-explore",
      {
        schema: {
          summary: "Explore this endpoint first in the next run (asked to start soon); that result is stored",
          tags,
          params: addressParams,
          response: {
            202: { type: "object", properties: { requested: { type: "boolean" } } },
            ...errors,
          },
        },
      },
      async (request, reply) => {
        await explorer.requestReExplore(request.params.address);
        await requestRun();
        return reply.code(202).send({ requested: true });
      },
    );

    app.get(
      "/api/v1/site-explorer/managed-hosts",
      {
        schema: {
          summary: "Each explored host BMC's pairing and ingestion verdict",
          tags,
          response: {
            200: {
              type: "object",
              properties: { managedHosts: { type: "array", items: managedHostSchema } },
            },
          },
        },
      },
      async () => ({ managedHosts: await explorer.listManagedHosts() }),
    );

    app.get(
      "/api/v1/machines",
      {
        schema: {
          summary: "Managed hosts and DPUs, in id order",
          tags: machineTags,
          response: {
            200: { type: "object", properties: { machines: { type: "array", items: machineSchema } } },
          },
        },
      },
      async () => ({ machines: await explorer.listMachines() }),
    );

    app.get<{ Params: { id: string } }>(
      "/api/v1/machines/:id",
      {
        schema: {
          summary: "One machine with its lifecycle history",
          tags: machineTags,
          params: idParams,
          response: { 200: machineDetailSchema, ...errors },
        },
      },
      async (request) => explorer.getMachine(request.params.id),
    );
  };
}
