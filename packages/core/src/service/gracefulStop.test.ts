import { connect, type Socket } from "node:net";
import {
  credentials,
  type GrpcObject,
  Metadata,
  type ServiceClientConstructor,
  type ServiceError,
} from "@grpc/grpc-js";
import { Agent, request } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
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

/** A shutdown grace no test outlives: a stop() that returns did not wait for it. */
const LONG_GRACE_MS = 600_000;
/** The grace of the tests that let it run out. */
const SHORT_GRACE_MS = 200;

/**
 * How long `stop` took: at least the grace when it had to wait it out. Timers count whole milliseconds, so
 * one that is due after `SHORT_GRACE_MS` may fire up to 1 ms early by `performance.now()`.
 */
async function timed(stop: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await stop();
  return performance.now() - started;
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

  /**
   * Starts the service before each test of the enclosing describe. Starting it (an in-memory database and
   * its migrations) is the slow part on a busy machine, so it runs in a hook (their timeout is longer) and
   * the test's own time goes to the behaviour it checks.
   */
  function startedService(shutdownGraceMs: number): () => Awaited<ReturnType<typeof start>> {
    let started: Awaited<ReturnType<typeof start>> | undefined;
    beforeEach(async () => {
      started = await start(shutdownGraceMs);
    });
    return () => {
      if (!started) throw new Error("the service did not start");
      return started;
    };
  }

  describe("with a grace no test outlives", () => {
    const started = startedService(LONG_GRACE_MS);

    it("lets the request finish, answers 503 to a new one, then closes the connection at once", async () => {
      const { service, agent, slow, base } = started();
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
      // Before the fix the now idle keep-alive connection held stop() until the client dropped it (~70 s, and
      // the grace is longer still): stop() returning while the agent keeps its connections is the proof.
      await stopped;
      expect(response.headers.connection).toBe("close");
    });
  });

  describe(`with a grace of ${SHORT_GRACE_MS} ms`, () => {
    const started = startedService(SHORT_GRACE_MS);

    it("closes a request still running after the grace period (engine.shutdownGraceMs)", async () => {
      const { service, agent, slow, base } = started();
      const inFlight = request(`${base}/test/slow`, { dispatcher: agent }).catch((error: Error) => error);
      await slow.entered.promise;

      // The route is held until after stop() returns: stop() cut it off rather than wait for it.
      const took = await timed(() => service.stop());
      expect(took).toBeGreaterThanOrEqual(SHORT_GRACE_MS - 1);
      expect(await inFlight).toBeInstanceOf(Error);
      slow.release.open();
    });
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
  let hanging: ReturnType<typeof hangingGrpcFeature>;
  let service: RunningService;
  // Started in a hook, as above: the slow part on a busy machine is not what the test checks.
  beforeEach(async () => {
    hanging = hangingGrpcFeature();
    service = await startService({
      config: config(SHORT_GRACE_MS),
      logger: silentLogger,
      features: [hanging.feature],
      inMemoryDatabase: true,
    });
  });
  afterEach(async () => {
    await service?.stop();
  });

  it("cancels a call still running after the grace period (engine.shutdownGraceMs)", async () => {
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
      // The call is never answered: stop() returning at all means it cancelled the call after the grace.
      const took = await timed(() => service.stop());
      expect(took).toBeGreaterThanOrEqual(SHORT_GRACE_MS - 1);
      expect((await call)?.code).toEqual(expect.any(Number));
    } finally {
      client.close();
    }
  });
});
