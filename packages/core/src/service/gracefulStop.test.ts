import { connect, type Socket } from "node:net";
import {
  credentials,
  type GrpcObject,
  Metadata,
  type ServiceClientConstructor,
  type ServiceError,
} from "@grpc/grpc-js";
import { Agent, request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { loadRacksmithProto } from "../api/index.js";
import { DEFAULT_CONFIG, type LoadedConfig } from "../config/index.js";
import { silentLogger } from "../logging/index.js";
import type { ServiceFeature } from "./feature.js";
import { type RunningService, startService } from "./startService.js";

function latch<T = void>(): { promise: Promise<T>; open(value: T): void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A test-only route held on a latch, and a latch that opens when the REST server starts closing. */
function slowFeature() {
  const entered = latch();
  const release = latch();
  const closing = latch();
  const feature: ServiceFeature = {
    name: "slow-route",
    setup: async () => ({
      rest: (app) => {
        app.addHook("preClose", async () => closing.open());
        app.get("/test/slow", async () => {
          entered.open();
          await release.promise;
          return { done: true };
        });
      },
    }),
  };
  return { feature, entered, release, closing };
}

function config(shutdownGraceMs: number): LoadedConfig {
  const defaults = structuredClone(DEFAULT_CONFIG);
  return {
    config: {
      ...defaults,
      server: { http: "127.0.0.1:0", grpc: "127.0.0.1:0" },
      engine: { ...defaults.engine, shutdownGraceMs },
    },
    file: undefined,
    baseDir: process.cwd(),
  };
}

/** Resolves with how long `promise` took, or with "still waiting" after `limitMs`. */
async function within(promise: Promise<unknown>, limitMs: number): Promise<number | "still waiting"> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const result = await Promise.race([
    promise.then(() => performance.now() - started),
    new Promise<"still waiting">((resolve) => {
      timer = setTimeout(() => resolve("still waiting"), limitMs);
    }),
  ]);
  clearTimeout(timer);
  return result;
}

/** A raw HTTP/1.1 connection: everything it has received, and a promise for its close. */
async function rawConnection(
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

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe("stopping the service with a keep-alive request in flight", () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  async function start(shutdownGraceMs: number) {
    const slow = slowFeature();
    const service: RunningService = await startService({
      config: config(shutdownGraceMs),
      logger: silentLogger,
      features: [slow.feature],
      inMemoryDatabase: true,
    });
    cleanups.push(() => service.stop());
    // undici keeps the connection alive for the server's advertised `Keep-Alive: timeout=72` (minus 2 s).
    const agent = new Agent();
    cleanups.push(() => agent.destroy());
    return { service, agent, slow, base: `http://127.0.0.1:${service.http.port}` };
  }

  it("lets the request finish, answers 503 to a new one, then closes the connection at once", async () => {
    const { service, agent, slow, base } = await start(60_000);
    const inFlight = request(`${base}/test/slow`, { dispatcher: agent });
    await slow.entered.promise;

    // A second keep-alive connection: one request answered, the next one's headers half sent, so the
    // server is mid-request on it (not idle) when it starts closing.
    const late = await rawConnection(service.http.port);
    cleanups.push(async () => late.socket.destroy());
    late.socket.write(
      "GET /healthz HTTP/1.1\r\nHost: racksmith\r\n\r\nGET /api/v1/version HTTP/1.1\r\nHost: racksmith\r\n",
    );
    await until(() => late.received().includes('{"status":"ok"}'));

    const stopped = service.stop();
    await slow.closing.promise;
    late.socket.write("\r\n");
    await late.closed;
    expect(late.received()).toMatch(/HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(late.received()).toMatch(/\r\nConnection: close\r\n/i);

    slow.release.open();
    const response = await inFlight;
    expect(response.statusCode).toBe(200);
    expect(await response.body.json()).toEqual({ done: true });
    // Before the fix the now idle keep-alive connection held stop() until the client dropped it (~70 s).
    expect(await within(stopped, 2_000), "stop() 2 s after the last response").not.toBe("still waiting");
    expect(response.headers.connection).toBe("close");
  });

  it("closes a request still running after the grace period (engine.shutdownGraceMs)", async () => {
    const { service, agent, slow, base } = await start(200);
    const inFlight = request(`${base}/test/slow`, { dispatcher: agent }).catch((error: Error) => error);
    await slow.entered.promise;

    const took = await within(service.stop(), 5_000);
    expect(took, "stop() with a request that never finishes").not.toBe("still waiting");
    expect(took).toBeGreaterThanOrEqual(200);
    expect(await inFlight).toBeInstanceOf(Error);
    slow.release.open();
  });
});

/** A gRPC method (the inventory's ListExpectedMachines) that never answers until released. */
function hangingGrpcFeature() {
  const entered = latch();
  const feature: ServiceFeature = {
    name: "hanging-grpc",
    setup: async () => ({
      grpc: [
        {
          protoFile: "racksmith/v1/inventory.proto",
          serviceName: "racksmith.v1.Inventory",
          handlers: { ListExpectedMachines: () => entered.open() },
        },
      ],
    }),
  };
  return { feature, entered };
}

describe("stopping the service with a gRPC call in flight", () => {
  it("cancels a call still running after the grace period (engine.shutdownGraceMs)", async () => {
    const hanging = hangingGrpcFeature();
    const service = await startService({
      config: config(200),
      logger: silentLogger,
      features: [hanging.feature],
      inMemoryDatabase: true,
    });
    const proto = loadRacksmithProto(["racksmith/v1/inventory.proto"]).grpc as unknown as GrpcObject;
    const Inventory = ((proto.racksmith as GrpcObject).v1 as GrpcObject)
      .Inventory as ServiceClientConstructor;
    const client = new Inventory(`127.0.0.1:${service.grpc.port}`, credentials.createInsecure());
    try {
      const call = new Promise<ServiceError | null>((resolve) =>
        (
          client.ListExpectedMachines as (
            r: object,
            m: Metadata,
            cb: (e: ServiceError | null) => void,
          ) => void
        )({}, new Metadata(), (error) => resolve(error)),
      );
      await hanging.entered.promise;
      const took = await within(service.stop(), 5_000);
      expect(took, "stop() with a gRPC call that never finishes").not.toBe("still waiting");
      expect(took).toBeGreaterThanOrEqual(200);
      expect((await call)?.code).toEqual(expect.any(Number));
    } finally {
      client.close();
      await service.stop();
    }
  });
});
