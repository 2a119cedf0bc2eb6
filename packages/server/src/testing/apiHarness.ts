import { createRequire } from "node:module";
import { connect, type Socket } from "node:net";
import { dirname, join } from "node:path";
import {
  type Client,
  credentials,
  type GrpcObject,
  InterceptingCall,
  type Interceptor,
  loadPackageDefinition,
  type Metadata,
  ServerCredentials,
  type ServiceClientConstructor,
  type ServiceError,
} from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { type Logger, silentLogger } from "@racksmith/core";
import { StateEngine, type StateMachine } from "@racksmith/core/engine";
import type { FastifyInstance } from "fastify";
import {
  type AccessGate,
  type ApiContext,
  createGrpcServer,
  createRestServer,
  type GrpcApi,
  type GrpcServiceModule,
  loadRacksmithProto,
  type RestRoutes,
} from "../api/index.js";
import type { LoadedConfig, RacksmithConfig } from "../config/index.js";
import type { Database } from "../db/index.js";
import type { RunningService, ServiceFeature, ServiceOptions } from "../service/index.js";
import { fakeApiContext } from "./fakeApiContext.js";
import { harnessGate } from "./harnessGate.js";
import { openTestDatabase } from "./testDatabase.js";

/*
 * API tests, two ways:
 * - `startApiHarness`: a feature's REST routes and gRPC services over a test database and a state engine, as
 *   its setup would build them (REST through fastify's `inject`, gRPC on a free local port).
 * - `startServiceHarness`: the whole service (`startService`, in-memory database), listening on free ports.
 * Both make gRPC clients from the racksmith protos and close everything they started, in reverse order.
 * Helpers for either: `call` (a unary call as a promise), `grpcFailure`, `grpcHealthStatus`, `rawHttp`.
 */

/** The callback of a generated client's unary method. */
export type UnaryCallback<T> = (error: ServiceError | null, value?: T) => void;

/** A promise of one unary gRPC call made with the generated client's callback API. */
export function call<T>(invoke: (callback: UnaryCallback<T>) => void): Promise<T> {
  return new Promise((resolve, reject) =>
    invoke((error, value) => (error ? reject(error) : resolve(value as T))),
  );
}

/** What a gRPC call that must fail failed with: status code, details and racksmith's stable error code. */
export async function grpcFailure(
  promise: Promise<unknown>,
): Promise<{ code: number; details: string; errorCode: unknown }> {
  const error = (await promise.then(
    () => {
      throw new Error("expected a gRPC error");
    },
    (e: unknown) => e,
  )) as ServiceError;
  return {
    code: error.code,
    details: error.details,
    errorCode: (error.metadata as Metadata).get("racksmith-error-code")[0],
  };
}

const require = createRequire(import.meta.url);
const HEALTH_PROTO = join(
  dirname(require.resolve("grpc-health-check/package.json")),
  "proto/health/v1/health.proto",
);

/** Asks the standard `grpc.health.v1.Health/Check` at `address` for `service` ("" is the server). */
export async function grpcHealthStatus(address: string, service = ""): Promise<string | undefined> {
  const root = loadPackageDefinition(loadSync(HEALTH_PROTO, { enums: String }));
  const Health = lookup(root, "grpc.health.v1.Health");
  const client = new Health(address, credentials.createInsecure());
  try {
    const check = client.Check as (request: object, callback: UnaryCallback<{ status: string }>) => void;
    return (await call<{ status: string }>((cb) => check.call(client, { service }, cb))).status;
  } finally {
    client.close();
  }
}

/** A raw HTTP/1.1 connection (for what fetch cannot send): everything it received, and its close. */
export async function rawHttp(
  port: number,
): Promise<{ socket: Socket; received(): string; closed: Promise<void> }> {
  const socket = connect(port, "127.0.0.1");
  let text = "";
  socket.setEncoding("utf8").on("data", (chunk: string) => {
    text += chunk;
  });
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  return { socket, received: () => text, closed };
}

function lookup(root: GrpcObject, serviceName: string): ServiceClientConstructor {
  const found = serviceName
    .split(".")
    .reduce<unknown>((node, part) => (node as GrpcObject | undefined)?.[part], root);
  if (typeof found !== "function") throw new Error(`no gRPC service ${serviceName} in the loaded protos`);
  return found as ServiceClientConstructor;
}

/** A client interceptor sending `authorization` with every call (call credentials need a TLS channel). */
export function authorizationInterceptor(authorization: string): Interceptor {
  return (options, nextCall) =>
    new InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        metadata.set("authorization", authorization);
        next(metadata, listener);
      },
    });
}

/** Makes gRPC clients; `client<C>(service, protoFile?)` is closed by the harness's `close`. */
export interface GrpcClients {
  /** The gRPC server's `host:port`. */
  readonly grpcAddress: string;
  /**
   * A client of `serviceName` (`racksmith.v1.Instances`) from `protoFile` (under `proto/`; the core proto is
   * always loaded), typed as the generated client `C`. Its calls send `authorization` (default: the
   * harness's: a service's admin token; `null`: none).
   */
  client<C extends Client = Client>(
    serviceName: string,
    protoFile?: string,
    options?: { authorization?: string | null },
  ): C;
}

/**
 * gRPC clients of the service at `grpcAddress`, each call sending `authorization` (unless a client is made
 * with its own); `closeAll` closes them.
 */
export function grpcClients(grpcAddress: string, authorization?: string): GrpcClients & { closeAll(): void } {
  const made: Client[] = [];
  return {
    grpcAddress,
    client<C extends Client = Client>(
      serviceName: string,
      protoFile?: string,
      options: { authorization?: string | null } = {},
    ): C {
      const proto = loadRacksmithProto(protoFile ? [protoFile] : []).grpc as unknown as GrpcObject;
      const sent = options.authorization === undefined ? authorization : options.authorization;
      const client = new (lookup(proto, serviceName))(grpcAddress, credentials.createInsecure(), {
        ...(sent ? { interceptors: [authorizationInterceptor(sent)] } : {}),
      });
      made.push(client);
      return client as unknown as C;
    },
    closeAll: () => {
      for (const client of made.splice(0)) client.close();
    },
  };
}

/** Steps to undo, run last first; a step that fails does not stop the others. */
function teardown(): { add(step: () => Promise<unknown> | unknown): void; run(): Promise<void> } {
  const steps: Array<() => Promise<unknown> | unknown> = [];
  return {
    add: (step) => {
      steps.push(step);
    },
    run: async () => {
      const errors: unknown[] = [];
      for (const step of steps.splice(0).reverse()) {
        try {
          await step();
        } catch (error) {
          errors.push(error);
        }
      }
      if (errors.length) throw errors[0];
    },
  };
}

export interface GrpcTestServer extends GrpcClients {
  /** The server and its standard health service. */
  api: GrpcApi;
  /** Closes the clients, then the server. */
  close(): Promise<void>;
}

/**
 * A gRPC server with `modules` (and the core service over `context`) on a free local port, behind the
 * harness's gate (see `harnessGate`).
 */
export async function startGrpcServer(
  modules: readonly GrpcServiceModule[] = [],
  context: ApiContext = fakeApiContext(),
  gate: AccessGate = harnessGate(),
): Promise<GrpcTestServer> {
  const api = createGrpcServer(context, modules, gate);
  const port = await new Promise<number>((resolve, reject) =>
    api.server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  const clients = grpcClients(`127.0.0.1:${port}`);
  return {
    ...clients,
    api,
    close: async () => {
      clients.closeAll();
      await new Promise<void>((resolve) => api.server.tryShutdown(() => resolve()));
    },
  };
}

/** The engine as services see it, recording the ids of the objects they enqueue. */
export interface RecordingEngine extends Pick<StateEngine, "enqueue" | "getObjectState"> {
  /** Ids enqueued through it, in order (a test empties it with `enqueued.length = 0`). */
  readonly enqueued: string[];
}

export function recordingEngine(engine: StateEngine): RecordingEngine {
  const enqueued: string[] = [];
  return {
    enqueued,
    enqueue: async (objectType, id) => {
      enqueued.push(id);
      await engine.enqueue(objectType, id);
    },
    getObjectState: engine.getObjectState.bind(engine),
  };
}

export interface ApiHarnessContext {
  database: Database;
  /** Enqueues pass on to the engine and are recorded in `enqueued`. */
  engine: RecordingEngine;
  logger: Logger;
}

export interface ApiHarnessOptions {
  /** Names the test database (its schema on PostgreSQL). */
  name: string;
  /** The engine's state machines. The engine is not started: tests put objects in states by hand. */
  machines?: readonly StateMachine[];
  /** Given to the APIs (default: silent). */
  logger?: Logger;
  /** Builds the APIs under test, as the feature's setup would. */
  apis(context: ApiHarnessContext): { rest?: readonly RestRoutes[]; grpc?: readonly GrpcServiceModule[] };
}

export interface ApiHarness extends GrpcClients {
  database: Database;
  engine: StateEngine;
  /** Ids the APIs enqueued, in order (empty it with `enqueued.length = 0`). */
  enqueued: string[];
  /** The REST server, not listening: send it requests with `rest.inject(…)`. */
  rest: FastifyInstance;
  /** Closes the clients, the servers and the database (dropping its schema). */
  close(): Promise<void>;
}

/** A feature's APIs over a test database (see `openTestDatabase`) and a state engine. */
export async function startApiHarness(options: ApiHarnessOptions): Promise<ApiHarness> {
  const cleanup = teardown();
  try {
    const testDb = await openTestDatabase(options.name);
    cleanup.add(() => testDb.close());
    const { database } = testDb;
    const engine = new StateEngine({ database, machines: [...(options.machines ?? [])] });
    const recording = recordingEngine(engine);
    const apis = options.apis({ database, engine: recording, logger: options.logger ?? silentLogger });
    const rest = await createRestServer(fakeApiContext(), apis.rest ?? [], { gate: harnessGate() });
    cleanup.add(() => rest.close());
    const grpc = await startGrpcServer(apis.grpc ?? []);
    cleanup.add(() => grpc.close());
    return {
      database,
      engine,
      enqueued: recording.enqueued,
      rest,
      grpcAddress: grpc.grpcAddress,
      client: grpc.client,
      close: () => cleanup.run(),
    };
  } catch (error) {
    await cleanup.run().catch(() => undefined);
    throw error;
  }
}

/** Config sections over `DEFAULT_CONFIG`: an object section is merged into the default one. */
export type ConfigOverrides = { [K in keyof RacksmithConfig]?: Partial<RacksmithConfig[K]> };

export interface ServiceHarnessOptions {
  /** Over `DEFAULT_CONFIG`; the servers always listen on free ports of 127.0.0.1. */
  config?: ConfigOverrides;
  /** The config file the service was given (relative paths resolve from its folder; default: none, cwd). */
  configFile?: string;
  features?: readonly ServiceFeature[];
  /** Extra state machines. */
  machines?: readonly StateMachine[];
  /** Default: silent. */
  logger?: Logger;
  /** Rules for the stub features' routes, outside the access table. */
  accessRules?: ServiceOptions["accessRules"];
}

/** A REST response: its status, its body as text and, when it is JSON, parsed (else undefined). */
export interface RestResponse<T> {
  status: number;
  json: T;
  text: string;
}

export interface ServiceHarness extends GrpcClients {
  service: RunningService;
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  /** The service's bootstrap admin token, which `request` and `client` send unless told otherwise. */
  adminToken: string;
  /**
   * A REST request to the service; `body` is sent as JSON, with `authorization` (default: the admin
   * token as a bearer; `null`: none).
   */
  request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    options?: { authorization?: string | null },
  ): Promise<RestResponse<T>>;
  /** Closes the clients, then stops the service (again, if the test stopped it). */
  close(): Promise<void>;
}

/** The service as `racksmith serve` runs it, on an in-memory database. */
export async function startServiceHarness(options: ServiceHarnessOptions = {}): Promise<ServiceHarness> {
  // Loaded here, not with this module: the service brings every feature, which the other helpers do not need.
  const [{ DEFAULT_CONFIG }, { startService }] = await Promise.all([
    import("../config/index.js"),
    import("../service/index.js"),
  ]);
  const defaults = structuredClone(DEFAULT_CONFIG);
  const config = { ...defaults } as Record<string, unknown>;
  for (const [key, value] of Object.entries(options.config ?? {})) {
    const base = config[key];
    config[key] = isRecord(base) && isRecord(value) ? { ...base, ...value } : structuredClone(value);
  }
  // Free ports always; the other server keys (tls, …) as the test gave them.
  config.server = { ...(options.config?.server ?? {}), http: "127.0.0.1:0", grpc: "127.0.0.1:0" };
  const loaded: LoadedConfig = {
    config: config as unknown as RacksmithConfig,
    file: options.configFile,
    baseDir: options.configFile ? dirname(options.configFile) : process.cwd(),
  };
  const service = await startService({
    config: loaded,
    logger: options.logger ?? silentLogger,
    inMemoryDatabase: true,
    features: options.features,
    machines: options.machines,
    ...(options.accessRules ? { accessRules: options.accessRules } : {}),
  });
  const baseUrl = `http://127.0.0.1:${service.http.port}`;
  const adminToken = service.adminToken ?? "";
  const clients = grpcClients(`127.0.0.1:${service.grpc.port}`, `Bearer ${adminToken}`);
  return {
    service,
    baseUrl,
    adminToken,
    grpcAddress: clients.grpcAddress,
    client: clients.client,
    request: async <T>(
      method: string,
      path: string,
      body?: unknown,
      requestOptions: { authorization?: string | null } = {},
    ): Promise<RestResponse<T>> => {
      const authorization =
        requestOptions.authorization === undefined ? `Bearer ${adminToken}` : requestOptions.authorization;
      const headers: Record<string, string> = {
        ...(authorization ? { authorization } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      };
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      const isJson = text !== "" && /json/.test(response.headers.get("content-type") ?? "");
      return { status: response.status, json: (isJson ? JSON.parse(text) : undefined) as T, text };
    },
    close: async () => {
      clients.closeAll();
      await service.stop();
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
