import { credentials, type ServiceError } from "@grpc/grpc-js";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../../test/engine/testDatabase.js";
import type { ProtoGrpcType } from "../../api/grpc/generated/lifecycle.js";
import type { LifecycleClient } from "../../api/grpc/generated/racksmith/v1/Lifecycle.js";
import { loadRacksmithProto } from "../../api/index.js";
import { silentLogger } from "../../logging/index.js";
import { StateEngine } from "../../state/index.js";
import {
  call,
  clearSite,
  insertHost,
  parkedManagedHostMachine,
  placeHost,
  recordingEngine,
  startGrpc,
  startRest,
} from "../agents/__fixtures__/site.js";
import { lifecycleGrpcServices } from "./grpcService.js";
import { lifecycleRestRoutes } from "./restRoutes.js";

let testDb: TestDatabase;
let engine: StateEngine;
let spy: ReturnType<typeof recordingEngine>;
let rest: FastifyInstance;
let grpcServer: { address: string; close(): Promise<void> };
let client: LifecycleClient;
let now = new Date("2026-05-01T00:00:00.000Z");

beforeAll(async () => {
  testDb = await openTestDatabase("lifecycle_api");
  engine = new StateEngine({ database: testDb.database, machines: [parkedManagedHostMachine()] });
  spy = recordingEngine(engine);
  const deps = { database: testDb.database, engine: spy, logger: silentLogger, clock: () => now };
  rest = await startRest([lifecycleRestRoutes(deps)]);
  grpcServer = await startGrpc(lifecycleGrpcServices(deps));
  const { grpc } = loadRacksmithProto(["racksmith/v1/lifecycle.proto"]) as unknown as { grpc: ProtoGrpcType };
  client = new grpc.racksmith.v1.Lifecycle(grpcServer.address, credentials.createInsecure());
});
afterAll(async () => {
  client?.close();
  await grpcServer?.close();
  await rest?.close();
  await testDb?.close();
});
beforeEach(async () => {
  await clearSite(testDb.database);
  spy.enqueued.length = 0;
  now = new Date("2026-05-01T00:00:00.000Z");
  await insertHost(testDb.database, { id: "h-1", dpus: [{ id: "d-1", hostFacingMac: "B8:3F:D2:00:00:01" }] });
  await placeHost(engine, testDb.database, "h-1", { state: "ready" });
});

const requestedAt = async () =>
  (
    await testDb.database.db
      .selectFrom("managed_hosts")
      .select("force_delete_requested_at")
      .where("host_id", "=", "h-1")
      .executeTakeFirst()
  )?.force_delete_requested_at;

describe("force delete", () => {
  it("records the intent on the host (a DPU id stands for it), keeps the first time and enqueues (REST)", async () => {
    const response = await rest.inject({ method: "POST", url: "/api/v1/machines/d-1/force-delete" });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ hostId: "h-1" });
    expect(await requestedAt()).toEqual(now);
    const first = now;
    now = new Date("2026-05-01T01:00:00.000Z");
    await testDb.database.db
      .updateTable("managed_hosts")
      .set({ network_config_version: 7 })
      .where("host_id", "=", "h-1")
      .execute();
    expect((await rest.inject({ method: "POST", url: "/api/v1/machines/h-1/force-delete" })).statusCode).toBe(
      202,
    );
    expect(await requestedAt()).toEqual(first);
    // The upsert leaves the rest of an existing row alone.
    const row = await testDb.database.db.selectFrom("managed_hosts").selectAll().executeTakeFirstOrThrow();
    expect(row.network_config_version).toBe(7);
    expect(spy.enqueued).toEqual(["h-1", "h-1"]);
  });

  it("answers 404 for an unknown machine", async () => {
    const response = await rest.inject({ method: "POST", url: "/api/v1/machines/ghost/force-delete" });
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
