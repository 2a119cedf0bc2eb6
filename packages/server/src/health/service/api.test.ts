import type { ServiceError } from "@grpc/grpc-js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { HealthClient } from "../../api/grpc/generated/racksmith/v1/Health.js";
import type { ListHealthHistoryResponse__Output } from "../../api/grpc/generated/racksmith/v1/ListHealthHistoryResponse.js";
import type { MachineHealth__Output } from "../../api/grpc/generated/racksmith/v1/MachineHealth.js";
import {
  clearSite,
  insertHost,
  parkedManagedHostMachine,
  placeHost,
} from "../../lifecycle/agents/__fixtures__/site.js";
import { type ApiHarness, call, startApiHarness } from "../../testing/index.js";
import { reportDpuAgent } from "./__fixtures__/healthSite.js";
import { healthGrpcServices } from "./grpcService.js";
import { HealthService } from "./healthService.js";
import { healthRestRoutes } from "./restRoutes.js";

let api: ApiHarness;
let client: HealthClient;
const now = new Date("2026-04-01T08:00:00.000Z");

beforeAll(async () => {
  api = await startApiHarness({
    name: "health_api",
    machines: [parkedManagedHostMachine()],
    apis: ({ database, engine, logger }) => {
      const service = new HealthService({ database, engine, logger, clock: () => now });
      return { rest: [healthRestRoutes(service)], grpc: healthGrpcServices(service, logger) };
    },
  });
  client = api.client<HealthClient>("racksmith.v1.Health", "racksmith/v1/health.proto");
});
afterAll(() => api?.close());
beforeEach(async () => {
  await clearSite(api.database);
  await insertHost(api.database, { id: "h-1", dpus: [{ id: "d-1", hostFacingMac: "B8:3F:D2:00:00:01" }] });
  await placeHost(api.engine, api.database, "h-1", { state: "ready" });
});

describe("REST /api/v1/machines/:id/health", () => {
  it("shows a silent DPU agent's HeartbeatTimeout; a maintenance override adds Maintenance; delete removes it", async () => {
    const shown = await api.rest.inject({ method: "GET", url: "/api/v1/machines/h-1/health" });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({
      machineId: "h-1",
      hostId: "h-1",
      kind: "host",
      report: {
        source: "aggregate-host-health",
        observedAt: now.toISOString(),
        alerts: [{ id: "HeartbeatTimeout", target: "forge-dpu-agent" }],
        successes: [],
      },
      overrides: [],
    });

    const added = await api.rest.inject({
      method: "POST",
      url: "/api/v1/machines/h-1/health/overrides",
      payload: { source: "maintenance", template: "maintenance" },
    });
    expect(added.statusCode).toBe(201);
    expect(added.json().overrides).toEqual([{ source: "maintenance", mode: "merge" }]);
    expect(added.json().report.alerts.map((a: { id: string }) => a.id)).toEqual([
      "HeartbeatTimeout",
      "Maintenance",
    ]);

    const removed = await api.rest.inject({
      method: "DELETE",
      url: "/api/v1/machines/h-1/health/overrides/maintenance",
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().overrides).toEqual([]);

    const missing = await api.rest.inject({
      method: "DELETE",
      url: "/api/v1/machines/h-1/health/overrides/maintenance",
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toMatchObject({ code: "health_override_not_found" });

    const history = await api.rest.inject({
      method: "GET",
      url: "/api/v1/machines/h-1/health/history?limit=1",
    });
    expect(history.statusCode).toBe(200);
    expect(history.json().entries).toHaveLength(1);
    expect(history.json().entries[0].report.alerts.map((a: { id: string }) => a.id)).toEqual([
      "HeartbeatTimeout",
    ]);
  });

  it("takes a report override in replace mode", async () => {
    const added = await api.rest.inject({
      method: "POST",
      url: "/api/v1/machines/h-1/health/overrides",
      payload: {
        source: "sre",
        mode: "replace",
        report: {
          source: "ignored",
          alerts: [{ id: "Custom", message: "hold", classifications: ["PreventAllocations"] }],
        },
      },
    });
    expect(added.statusCode).toBe(201);
    expect(added.json().overrides).toEqual([{ source: "sre", mode: "replace" }]);
    expect(added.json().report.alerts.map((a: { id: string }) => a.id)).toEqual(["Custom"]);
  });

  it.each([
    [{ source: "x" }, /exactly one of report and template/],
    [{ source: "x", template: "maintenance", report: { source: "x" } }, /exactly one of report and template/],
    [
      { source: "x", report: { source: "x", alerts: [{ id: "", message: "m" }] } },
      /report: invalid health report: alerts\[0\]\.id/,
    ],
    [{ source: "x", template: "vacation" }, /template/],
  ])("answers 400 for %j", async (payload, message) => {
    const response = await api.rest.inject({
      method: "POST",
      url: "/api/v1/machines/h-1/health/overrides",
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(message);
  });

  it("answers 404 for an unknown machine", async () => {
    const response = await api.rest.inject({ method: "GET", url: "/api/v1/machines/nope/health" });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe("machine_not_found");
  });
});

describe("gRPC racksmith.v1.Health", () => {
  it("adds, shows, lists and removes overrides", async () => {
    await reportDpuAgent(api.database, "d-1", now);
    const added = await call<MachineHealth__Output>((cb) =>
      client.AddHealthOverride({ machineId: "h-1", source: "maintenance", template: "maintenance" }, cb),
    );
    expect(added.overrides).toEqual([{ source: "maintenance", mode: "merge" }]);
    expect(added.report?.alerts.map((a) => a.id)).toEqual(["Maintenance"]);

    const replaced = await call<MachineHealth__Output>((cb) =>
      client.AddHealthOverride(
        { machineId: "h-1", source: "sre", mode: "replace", report: { source: "sre", alerts: [] } },
        cb,
      ),
    );
    expect(replaced.report?.alerts).toEqual([]);

    const shown = await call<MachineHealth__Output>((cb) =>
      client.GetMachineHealth({ machineId: "h-1" }, cb),
    );
    expect(shown.overrides).toEqual([
      { source: "maintenance", mode: "merge" },
      { source: "sre", mode: "replace" },
    ]);

    const removed = await call<MachineHealth__Output>((cb) =>
      client.RemoveHealthOverride({ machineId: "h-1", source: "sre" }, cb),
    );
    expect(removed.report?.alerts.map((a) => a.id)).toEqual(["Maintenance"]);

    const history = await call<ListHealthHistoryResponse__Output>((cb) =>
      client.ListHealthHistory({ machineId: "h-1" }, cb),
    );
    expect(history.entries.map((e) => e.report?.alerts.map((a) => a.id))).toEqual([
      ["Maintenance"],
      [],
      ["Maintenance"],
    ]);
  });

  it("maps errors to gRPC statuses", async () => {
    const notFound = await call((cb) =>
      client.RemoveHealthOverride({ machineId: "h-1", source: "ghost" }, cb),
    ).catch((e: ServiceError) => e);
    expect((notFound as ServiceError).code).toBe(5);
    const invalid = await call((cb) =>
      client.AddHealthOverride(
        { machineId: "d-1", source: "x", mode: "replace", template: "mark-healthy" },
        cb,
      ),
    ).catch((e: ServiceError) => e);
    expect((invalid as ServiceError).code).toBe(3);
    expect((invalid as ServiceError).details).toContain("DPU");
  });
});
