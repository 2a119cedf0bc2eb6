import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import {
  credentials,
  loadPackageDefinition,
  type Metadata,
  ServerCredentials,
  type ServiceError,
  status,
} from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeApiContext, widget } from "../../../test/support/fakeApiContext.js";
import { createGrpcServer, type GrpcApi, RACKSMITH_SERVICE } from "./createGrpcServer.js";
import type { ObjectState__Output } from "./generated/racksmith/v1/ObjectState.js";
import type { RacksmithClient } from "./generated/racksmith/v1/Racksmith.js";
import { loadRacksmithProto } from "./loadProto.js";

type Callback<T> = (error: ServiceError | null, value?: T) => void;
function call<T>(invoke: (callback: Callback<T>) => void): Promise<T> {
  return new Promise((resolve, reject) =>
    invoke((error, value) => (error ? reject(error) : resolve(value as T))),
  );
}

const require = createRequire(import.meta.url);
const packageDir = (name: string): string => dirname(require.resolve(`${name}/package.json`));
const REFLECTION_PROTO = join(
  packageDir("@grpc/reflection"),
  "build/proto/grpc/reflection/v1/reflection.proto",
);
const HEALTH_PROTO = join(packageDir("grpc-health-check"), "proto/health/v1/health.proto");

describe("gRPC API", () => {
  const context = fakeApiContext([widget("w-1")]);
  let api: GrpcApi;
  let address: string;
  let client: RacksmithClient;

  beforeAll(async () => {
    api = createGrpcServer(context);
    const port = await new Promise<number>((resolve, reject) =>
      api.server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    address = `127.0.0.1:${port}`;
    const { grpc } = loadRacksmithProto();
    client = new grpc.racksmith.v1.Racksmith(address, credentials.createInsecure());
  });
  afterAll(async () => {
    client.close();
    await new Promise<void>((resolve) => api.server.tryShutdown(() => resolve()));
  });

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
    const health = loadPackageDefinition(loadSync(HEALTH_PROTO, { enums: String })) as unknown as {
      grpc: {
        health: {
          v1: {
            Health: new (
              a: string,
              c: ReturnType<typeof credentials.createInsecure>,
            ) => { Check: (r: object, cb: Callback<{ status: string }>) => void; close(): void };
          };
        };
      };
    };
    const healthClient = new health.grpc.health.v1.Health(address, credentials.createInsecure());
    expect(
      (await call<{ status: string }>((cb) => healthClient.Check({ service: RACKSMITH_SERVICE }, cb))).status,
    ).toBe("NOT_SERVING");
    api.health.setStatus(RACKSMITH_SERVICE, "SERVING");
    expect(
      (await call<{ status: string }>((cb) => healthClient.Check({ service: RACKSMITH_SERVICE }, cb))).status,
    ).toBe("SERVING");
    healthClient.close();
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
      address,
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
