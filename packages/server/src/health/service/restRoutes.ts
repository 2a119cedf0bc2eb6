import { InvalidArgumentError } from "@racksmith/core";
import { parseHealthReport } from "@racksmith/core/health";
import type { FastifyInstance } from "fastify";
import type { RestRoutes } from "../../api/index.js";
import type { HealthOverrideMode } from "../overrides.js";
import type { HealthOverrideInput, HealthService } from "./healthService.js";
import {
  addOverrideBody,
  historyQuery,
  historySchema,
  machineHealthSchema,
  machineIdParams,
  overrideParams,
} from "./schemas.js";

const errors = { 400: { $ref: "Error#" }, 404: { $ref: "Error#" } };
const tags = ["health"];

interface AddOverrideBody {
  source: string;
  mode?: HealthOverrideMode;
  report?: unknown;
  template?: string;
  message?: string;
  triggeredBy?: string;
}

/** Exactly one of report (checked, errors naming the field) and template. */
export function overrideInput(body: {
  report?: unknown;
  template?: string | undefined;
}): HealthOverrideInput {
  if ((body.report === undefined) === (body.template === undefined)) {
    throw new InvalidArgumentError("give exactly one of report and template");
  }
  return body.template !== undefined
    ? { template: body.template }
    : { report: parseHealthReport(body.report, "report") };
}

/** `/api/v1/machines/:id/health`: a machine's health, its history and its operator overrides. */
export function healthRestRoutes(service: HealthService): RestRoutes {
  return (app: FastifyInstance) => {
    app.get<{ Params: { id: string } }>(
      "/api/v1/machines/:id/health",
      {
        schema: {
          summary: "A host's aggregate health (a DPU: its own view) and the machine's overrides",
          tags,
          params: machineIdParams,
          response: { 200: machineHealthSchema, ...errors },
        },
      },
      async (request) => service.show(request.params.id),
    );

    app.get<{ Params: { id: string }; Querystring: { limit: number } }>(
      "/api/v1/machines/:id/health/history",
      {
        schema: {
          summary: "The host's aggregate health history, newest first (one entry per change of content)",
          tags,
          params: machineIdParams,
          querystring: historyQuery,
          response: { 200: historySchema, ...errors },
        },
      },
      async (request) => service.history(request.params.id, request.query.limit),
    );

    app.post<{ Params: { id: string }; Body: AddOverrideBody }>(
      "/api/v1/machines/:id/health/overrides",
      {
        schema: {
          summary:
            "Add (or replace) the health override of a source: a report or a template, merge or replace",
          tags,
          params: machineIdParams,
          body: addOverrideBody,
          response: { 201: machineHealthSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { source, mode, message, triggeredBy } = request.body;
        const view = await service.addOverride(request.params.id, overrideInput(request.body), {
          source,
          ...(mode !== undefined ? { mode } : {}),
          ...(message !== undefined ? { message } : {}),
          ...(triggeredBy !== undefined ? { triggeredBy } : {}),
        });
        return reply.code(201).send(view);
      },
    );

    app.delete<{ Params: { id: string; source: string } }>(
      "/api/v1/machines/:id/health/overrides/:source",
      {
        schema: {
          summary: "Remove the health override of a source (404 when there is none)",
          tags,
          params: overrideParams,
          response: { 200: machineHealthSchema, ...errors },
        },
      },
      async (request) => service.removeOverride(request.params.id, request.params.source),
    );
  };
}
