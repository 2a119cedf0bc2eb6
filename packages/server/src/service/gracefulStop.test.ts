import type { ServiceError } from "@grpc/grpc-js";
import { Agent, request } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { InventoryClient } from "../api/grpc/generated/racksmith/v1/Inventory.js";
import { latch, rawHttp, type ServiceHarness, startServiceHarness, waitFor } from "../testing/index.js";
import type { ServiceFeature } from "./feature.js";

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

/** The service with `feature`, whose calls in flight get `shutdownGraceMs` when it stops. */
function startWith(feature: ServiceFeature, shutdownGraceMs: number): Promise<ServiceHarness> {
  return startServiceHarness({
    config: { engine: { shutdownGraceMs } },
    features: [feature],
    accessRules: { "GET /test/slow": { roles: "public", mutates: false } },
  });
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

describe("stopping the service with a keep-alive request in flight", () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  async function start(shutdownGraceMs: number) {
    const slow = slowFeature();
    const api = await startWith(slow.feature, shutdownGraceMs);
    cleanups.push(() => api.close());
    // undici keeps the connection alive for the server's advertised `Keep-Alive: timeout=72` (minus 2 s).
    const agent = new Agent();
    cleanups.push(() => agent.destroy());
    return { service: api.service, agent, slow, base: api.baseUrl };
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
      const late = await rawHttp(service.http.port);
      cleanups.push(async () => late.socket.destroy());
      late.socket.write(
        "GET /healthz HTTP/1.1\r\nHost: racksmith\r\n\r\nGET /api/v1/version HTTP/1.1\r\nHost: racksmith\r\n",
      );
      await waitFor(() => late.received().includes('{"status":"ok"}'), {
        intervalMs: "immediate",
        timeoutMs: Number.POSITIVE_INFINITY,
      });

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
  let api: ServiceHarness;
  // Started in a hook, as above: the slow part on a busy machine is not what the test checks.
  beforeEach(async () => {
    hanging = hangingGrpcFeature();
    api = await startWith(hanging.feature, SHORT_GRACE_MS);
  });
  afterEach(async () => {
    await api?.close();
  });

  it("cancels a call still running after the grace period (engine.shutdownGraceMs)", async () => {
    const client = api.client<InventoryClient>("racksmith.v1.Inventory", "racksmith/v1/inventory.proto");
    const call = new Promise<ServiceError | null>((resolve) =>
      client.ListExpectedMachines({}, (error) => resolve(error)),
    );
    await hanging.entered.promise;
    // The call is never answered: stop() returning at all means it cancelled the call after the grace.
    const took = await timed(() => api.service.stop());
    expect(took).toBeGreaterThanOrEqual(SHORT_GRACE_MS - 1);
    expect((await call)?.code).toEqual(expect.any(Number));
  });
});
