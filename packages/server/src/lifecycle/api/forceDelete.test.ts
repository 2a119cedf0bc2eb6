import type { ServiceError } from "@grpc/grpc-js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { LifecycleClient } from "../../api/grpc/generated/racksmith/v1/Lifecycle.js";
import { type ApiHarness, call, startApiHarness } from "../../testing/index.js";
import { clearSite, insertHost, parkedManagedHostMachine, placeHost } from "../agents/__fixtures__/site.js";
import { lifecycleGrpcServices } from "./grpcService.js";
import { lifecycleRestRoutes } from "./restRoutes.js";

let api: ApiHarness;
let client: LifecycleClient;
let now = new Date("2026-05-01T00:00:00.000Z");

beforeAll(async () => {
  api = await startApiHarness({
    name: "lifecycle_api",
    machines: [parkedManagedHostMachine()],
    apis: (context) => {
      const deps = { ...context, clock: () => now };
      return { rest: [lifecycleRestRoutes(deps)], grpc: lifecycleGrpcServices(deps) };
    },
  });
  client = api.client<LifecycleClient>("racksmith.v1.Lifecycle", "racksmith/v1/lifecycle.proto");
});
afterAll(() => api?.close());
beforeEach(async () => {
  await clearSite(api.database);
  api.enqueued.length = 0;
  now = new Date("2026-05-01T00:00:00.000Z");
  await insertHost(api.database, { id: "h-1", dpus: [{ id: "d-1", hostFacingMac: "B8:3F:D2:00:00:01" }] });
  await placeHost(api.engine, api.database, "h-1", { state: "ready" });
});

const requestedAt = async () =>
  (
    await api.database.db
      .selectFrom("managed_hosts")
      .select("force_delete_requested_at")
      .where("host_id", "=", "h-1")
      .executeTakeFirst()
  )?.force_delete_requested_at;

describe("force delete", () => {
  it("records the intent on the host (a DPU id stands for it), keeps the first time and enqueues (REST)", async () => {
    const response = await api.rest.inject({ method: "POST", url: "/api/v1/machines/d-1/force-delete" });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ hostId: "h-1" });
    expect(await requestedAt()).toEqual(now);
    const first = now;
    now = new Date("2026-05-01T01:00:00.000Z");
    await api.database.db
      .updateTable("managed_hosts")
      .set({ network_config_version: 7 })
      .where("host_id", "=", "h-1")
      .execute();
    expect(
      (await api.rest.inject({ method: "POST", url: "/api/v1/machines/h-1/force-delete" })).statusCode,
    ).toBe(202);
    expect(await requestedAt()).toEqual(first);
    // The upsert leaves the rest of an existing row alone.
    const row = await api.database.db.selectFrom("managed_hosts").selectAll().executeTakeFirstOrThrow();
    expect(row.network_config_version).toBe(7);
    expect(api.enqueued).toEqual(["h-1", "h-1"]);
  });

  it("answers 404 for an unknown machine", async () => {
    const response = await api.rest.inject({ method: "POST", url: "/api/v1/machines/ghost/force-delete" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: { code: "machine_not_found", status: "NOT_FOUND" } });
  });

  it("serves racksmith.v1.Lifecycle.ForceDeleteMachine", async () => {
    expect(await call((cb) => client.ForceDeleteMachine({ id: "h-1" }, cb))).toEqual({ hostId: "h-1" });
    expect(await requestedAt()).toEqual(now);
    const missing = (await call((cb) => client.ForceDeleteMachine({ id: "ghost" }, cb)).catch(
      (e) => e,
    )) as ServiceError;
    expect(missing.code).toBe(5);
    const empty = (await call((cb) => client.ForceDeleteMachine({ id: "" }, cb)).catch(
      (e) => e,
    )) as ServiceError;
    expect(empty).toMatchObject({ code: 3, details: "id is required" });
  });
});
