import type { FastifyInstance } from "fastify";
import { idParams, type RestRoutes } from "../../api/index.js";
import type { MachineValidationService } from "../service.js";
import {
  addTestBody,
  runBody,
  updateTestBody,
  validationRunSchema,
  validationTestSchema,
} from "./schemas.js";

const errors = {
  400: { $ref: "Error#" },
  404: { $ref: "Error#" },
  409: { $ref: "Error#" },
  412: { $ref: "Error#" },
};
const tags = ["validation"];
const test = { $ref: "ValidationTest#" };
const run = { $ref: "ValidationRun#" };

/**
 * `/api/v1/validation/tests` (the catalogue), `/api/v1/machines/:id/validation/runs` (on-demand runs, a host's
 * runs) and `/api/v1/validation/runs/:id`.
 */
export function machineValidationRestRoutes(service: MachineValidationService): RestRoutes {
  return (app: FastifyInstance) => {
    app.addSchema(validationTestSchema);
    app.addSchema(validationRunSchema);

    app.get(
      "/api/v1/validation/tests",
      {
        schema: {
          summary: "The test catalogue: built-in and site tests",
          tags,
          response: {
            200: { type: "object", properties: { tests: { type: "array", items: test } } },
            ...errors,
          },
        },
      },
      async () => ({ tests: await service.tests() }),
    );

    app.post<{ Body: unknown }>(
      "/api/v1/validation/tests",
      {
        schema: {
          summary: "Add a site test (unverified until verified)",
          tags,
          body: addTestBody,
          response: { 201: test, ...errors },
        },
      },
      async (request, reply) => reply.code(201).send(await service.add(request.body)),
    );

    app.patch<{ Params: { id: string }; Body: Record<string, unknown> }>(
      "/api/v1/validation/tests/:id",
      {
        schema: {
          summary: "Change a site test: a new version, unverified again",
          tags,
          params: idParams,
          body: updateTestBody,
          response: { 200: test, ...errors },
        },
      },
      async (request) => service.update(request.params.id, request.body),
    );

    for (const [action, summary] of [
      ["enable", "Enable a test (built-in ones too)"],
      ["disable", "Disable a test (built-in ones too): it never runs"],
      ["verify", "Mark a site test verified: it runs automatically in its contexts"],
    ] as const) {
      app.post<{ Params: { id: string } }>(
        `/api/v1/validation/tests/:id/${action}`,
        { schema: { summary, tags, params: idParams, response: { 200: test, ...errors } } },
        async (request) =>
          action === "verify"
            ? service.verify(request.params.id)
            : service.setEnabled(request.params.id, action === "enable"),
      );
    }

    app.post<{ Params: { id: string }; Body: { tests?: string[] } | null }>(
      "/api/v1/machines/:id/validation/runs",
      {
        schema: {
          summary:
            "Start an on-demand run on a Ready host without an instance (the tests named, or its on-demand tests)",
          tags,
          params: idParams,
          body: runBody,
          response: { 202: run, ...errors },
        },
      },
      async (request, reply) =>
        reply.code(202).send(await service.runOnDemand(request.params.id, request.body?.tests)),
    );

    app.get<{ Params: { id: string } }>(
      "/api/v1/machines/:id/validation/runs",
      {
        schema: {
          summary: "A host's validation runs with their results, newest first (the last 20)",
          tags,
          params: idParams,
          response: {
            200: { type: "object", properties: { runs: { type: "array", items: run } } },
            ...errors,
          },
        },
      },
      async (request) => ({ runs: await service.runs(request.params.id) }),
    );

    app.get<{ Params: { id: string } }>(
      "/api/v1/validation/runs/:id",
      {
        schema: {
          summary: "One validation run with its results",
          tags,
          params: idParams,
          response: { 200: run, ...errors },
        },
      },
      async (request) => service.run(request.params.id),
    );
  };
}
