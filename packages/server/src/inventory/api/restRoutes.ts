import type { FastifyInstance } from "fastify";
import type { RestRoutes } from "../../api/index.js";
import type { DhcpDiscovery, ExpectedMachineInput, ExpectedMachinesMode, Inventory } from "../contracts.js";
import { EXPECTED_MACHINES_BATCH_LIMIT_BYTES, EXPECTED_MACHINES_BATCH_MAX_ITEMS } from "./limits.js";
import { requireExpectedMachine } from "./requireExpectedMachine.js";
import {
  bmcEndpointSchema,
  bmcMacParams,
  dhcpDiscoveryBody,
  dhcpLeaseSchema,
  expectedMachineSchema,
  machineBody,
  machineRow,
  rowResultSchema,
} from "./schemas.js";

const errors = { 400: { $ref: "Error#" }, 404: { $ref: "Error#" }, 409: { $ref: "Error#" } };
const tags = ["inventory"];

/** `/api/v1/expected-machines`, `/api/v1/dhcp/…` and `/api/v1/bmc-endpoints`. */
export function inventoryRestRoutes(inventory: Inventory): RestRoutes {
  return (app: FastifyInstance) => {
    app.get(
      "/api/v1/expected-machines",
      {
        schema: {
          summary: "Every expected machine, by BMC MAC",
          tags,
          response: {
            200: {
              type: "object",
              properties: { machines: { type: "array", items: expectedMachineSchema } },
            },
          },
        },
      },
      async () => ({ machines: await inventory.expectedMachines() }),
    );

    app.get<{ Params: { bmcMac: string } }>(
      "/api/v1/expected-machines/:bmcMac",
      {
        schema: {
          summary: "One expected machine",
          tags,
          params: bmcMacParams,
          response: { 200: expectedMachineSchema, ...errors },
        },
      },
      async (request) => requireExpectedMachine(inventory, request.params.bmcMac),
    );

    app.post<{ Body: ExpectedMachineInput }>(
      "/api/v1/expected-machines",
      {
        schema: {
          summary: "Add an expected machine (its factory password goes to the credential store)",
          tags,
          body: machineBody,
          response: { 201: expectedMachineSchema, ...errors },
        },
      },
      async (request, reply) => reply.code(201).send(await inventory.addExpectedMachine(request.body)),
    );

    app.put<{ Params: { bmcMac: string }; Body: ExpectedMachineInput }>(
      "/api/v1/expected-machines/:bmcMac",
      {
        schema: {
          summary: "Replace an expected machine's fields (an omitted factoryPassword keeps the stored one)",
          tags,
          params: bmcMacParams,
          body: machineBody,
          response: { 200: expectedMachineSchema, ...errors },
        },
      },
      async (request) => inventory.updateExpectedMachine(request.params.bmcMac, request.body),
    );

    app.delete<{ Params: { bmcMac: string } }>(
      "/api/v1/expected-machines/:bmcMac",
      {
        schema: {
          summary: "Delete an expected machine and its factory password",
          tags,
          params: bmcMacParams,
          response: { 204: { type: "null" }, ...errors },
        },
      },
      async (request, reply) => {
        await inventory.deleteExpectedMachine(request.params.bmcMac);
        return reply.code(204).send();
      },
    );

    app.post<{ Body: { machines: unknown[]; mode: ExpectedMachinesMode; acceptPartial?: boolean } }>(
      "/api/v1/expected-machines/batch",
      {
        bodyLimit: EXPECTED_MACHINES_BATCH_LIMIT_BYTES,
        schema: {
          summary: "Add many, or replace all: all or nothing unless acceptPartial; one result per row",
          tags,
          body: {
            type: "object",
            required: ["machines", "mode"],
            additionalProperties: false,
            properties: {
              machines: { type: "array", maxItems: EXPECTED_MACHINES_BATCH_MAX_ITEMS, items: machineRow },
              mode: { type: "string", enum: ["add", "replace-all"] },
              acceptPartial: { type: "boolean", default: false },
            },
          },
          response: {
            200: {
              type: "object",
              properties: {
                applied: { type: "integer" },
                deleted: { type: "integer" },
                results: { type: "array", items: rowResultSchema },
              },
            },
            400: { $ref: "Error#" },
            413: { $ref: "Error#" },
          },
        },
      },
      async (request) => {
        const { machines, mode, acceptPartial } = request.body;
        return inventory.applyExpectedMachines(machines, { mode, acceptPartial: acceptPartial === true });
      },
    );

    app.post<{ Body: DhcpDiscovery }>(
      "/api/v1/dhcp/discover",
      {
        schema: {
          summary: "Record a DHCP discovery; returns the address to hand out",
          tags,
          body: dhcpDiscoveryBody,
          response: { 200: dhcpLeaseSchema, 400: { $ref: "Error#" }, 429: { $ref: "Error#" } },
        },
      },
      async (request) => inventory.discoverDhcp(request.body),
    );

    app.get(
      "/api/v1/dhcp/leases",
      {
        schema: {
          summary: "Every DHCP lease, by MAC",
          tags,
          response: {
            200: { type: "object", properties: { leases: { type: "array", items: dhcpLeaseSchema } } },
          },
        },
      },
      async () => ({ leases: await inventory.dhcpLeases() }),
    );

    app.get(
      "/api/v1/bmc-endpoints",
      {
        schema: {
          summary: "Every BMC to explore: DHCP leases and static expected-machine addresses",
          tags,
          response: {
            200: { type: "object", properties: { endpoints: { type: "array", items: bmcEndpointSchema } } },
          },
        },
      },
      async () => ({ endpoints: await inventory.bmcEndpoints() }),
    );
  };
}
