import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { credentials, loadPackageDefinition, type Metadata, type ServiceError, status } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  call,
  fakeApiContext,
  type GrpcTestServer,
  grpcHealthStatus,
  startGrpcServer,
  widget,
} from "../../testing/index.js";
import { RACKSMITH_SERVICE } from "./createGrpcServer.js";
import type { ObjectState__Output } from "./generated/racksmith/v1/ObjectState.js";
import type { RacksmithClient } from "./generated/racksmith/v1/Racksmith.js";

const require = createRequire(import.meta.url);
const REFLECTION_PROTO = join(
  dirname(require.resolve("@grpc/reflection/package.json")),
  "build/proto/grpc/reflection/v1/reflection.proto",
);

describe("gRPC API", () => {
  const context = fakeApiContext([widget("w-1")]);
  let server: GrpcTestServer;
  let client: RacksmithClient;

  beforeAll(async () => {
    server = await startGrpcServer([], context);
    client = server.client<RacksmithClient>("racksmith.v1.Racksmith");
  });
  afterAll(() => server?.close());

  it("answers Version", async () => {
    const version = await call((cb) => client.Version({}, cb));
    expect(version).toMatchObject({
      coreVersion: "0.1.0",
      pluginApiVersion: 1,
      plugins: [{ name: "@x/y", version: "1.0.0" }],
    });
  });

  it("answers GetObjectState with the state as JSON and timestamps", async () => {
    const state = await call<ObjectState__Output>((cb) =>
      client.GetObjectState({ objectType: "widget", objectId: "w-1", historyLimit: 5 }, cb),
    );
    expect(JSON.parse(state.stateJson)).toEqual({ state: "assembling", step: 2 });
    expect(state).toMatchObject({
      stateLabel: "assembling",
      version: "3",
      sla: { slaMs: "60000", aboveSla: false },
    });
    expect(state.outcome).toMatchObject({ kind: "wait", reason: "waiting for parts" });
    expect(state.enteredAt?.seconds).toBe(String(Date.parse("2026-11-22T03:00:00.000Z") / 1000));
    expect(state.history).toHaveLength(2);
    // Each entry: its SLA (absent: none) and, once left, the outcome that ended it.
    expect(
      state.history.map((h) => [h.slaMs ?? null, h.exitOutcome?.kind ?? null, h.exitOutcome?.reason]),
    ).toEqual([
      ["60000", null, undefined],
      [null, "wait", "waiting for the BMC"],
    ]);
  });

  it("maps errors to gRPC statuses with the stable code in metadata", async () => {
    const missing = (await call((cb) =>
      client.GetObjectState({ objectType: "widget", objectId: "zzz" }, cb),
    ).catch((e: unknown) => e)) as ServiceError;
    expect(missing.code).toBe(status.NOT_FOUND);
    expect(missing.details).toBe("widget zzz does not exist");
    expect((missing.metadata as Metadata).get("racksmith-error-code")).toEqual(["state_object_not_found"]);
    const unknown = (await call((cb) => client.Enqueue({ objectType: "gadget", objectId: "1" }, cb)).catch(
      (e: unknown) => e,
    )) as ServiceError;
    expect(unknown.code).toBe(status.INVALID_ARGUMENT);
  });

  it("enqueues", async () => {
    await call((cb) => client.Enqueue({ objectType: "widget", objectId: "w-1" }, cb));
    expect(context.enqueued).toEqual([["widget", "w-1"]]);
  });

  it("serves grpc.health.v1 and reports SERVING once the service says so", async () => {
    expect(await grpcHealthStatus(server.grpcAddress, RACKSMITH_SERVICE)).toBe("NOT_SERVING");
    server.api.health.setStatus(RACKSMITH_SERVICE, "SERVING");
    expect(await grpcHealthStatus(server.grpcAddress, RACKSMITH_SERVICE)).toBe("SERVING");
  });

  it("lists its services through server reflection", async () => {
    const reflection = loadPackageDefinition(loadSync(REFLECTION_PROTO)) as unknown as {
      grpc: {
        reflection: {
          v1: {
            ServerReflection: new (
              a: string,
              c: ReturnType<typeof credentials.createInsecure>,
            ) => {
              ServerReflectionInfo(): NodeJS.ReadWriteStream & { end(): void; write(m: object): boolean };
              close(): void;
            };
          };
        };
      };
    };
    const reflectionClient = new reflection.grpc.reflection.v1.ServerReflection(
      server.grpcAddress,
      credentials.createInsecure(),
    );
    const stream = reflectionClient.ServerReflectionInfo();
    const services = await new Promise<string[]>((resolve, reject) => {
      stream.on("data", (message: { listServicesResponse?: { service: Array<{ name: string }> } }) => {
        resolve((message.listServicesResponse?.service ?? []).map((s) => s.name));
        stream.end();
      });
      stream.on("error", reject);
      stream.write({ listServices: "*" });
    });
    reflectionClient.close();
    expect(services).toContain(RACKSMITH_SERVICE);
  });
});
