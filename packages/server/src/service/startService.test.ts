import { createServer, type Server } from "node:net";
import { silentLogger } from "@racksmith/core";
import { defineStateMachine, doNothing, transition } from "@racksmith/core/engine";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_CONFIG, type LoadedConfig } from "../config/index.js";
import { grpcHealthStatus, type ServiceHarness, startServiceHarness } from "../testing/index.js";
import { startService } from "./startService.js";

type TicketState = { state: "open" } | { state: "closed" };

// A two-state machine with no table of its own: enough to see the service run the engine.
const tickets = defineStateMachine<TicketState, object>({
  objectType: "ticket",
  load: async () => ({}),
  handlers: {
    open: async () => transition({ state: "closed" }),
    closed: async () => doNothing(),
  },
  sla: { open: 60_000 },
});

const config: LoadedConfig = {
  config: { ...structuredClone(DEFAULT_CONFIG), server: { http: "127.0.0.1:0", grpc: "127.0.0.1:0" } },
  file: undefined,
  baseDir: process.cwd(),
};

describe("the service", () => {
  let api: ServiceHarness;
  let base: string;
  beforeAll(async () => {
    api = await startServiceHarness({ machines: [tickets] });
    base = api.baseUrl;
  });
  afterAll(() => api?.close());

  it("is live and ready once migrated", async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: "ready",
      checks: expect.arrayContaining([
        expect.objectContaining({ name: "database", ok: true }),
        expect.objectContaining({ name: "migrations", ok: true }),
      ]),
    });
  });

  it("runs objects through the engine and serves their state over REST", async () => {
    await api.service.engine.createObject("ticket", "t-1", { state: "open" });
    type ObjectBody = { state: { state: string }; history: unknown[] };
    // No deadline of its own (vi.waitFor's default is 1 s): the test's timeout is the only bound.
    const body = await vi.waitFor(
      async () => {
        const current = (await api.request<ObjectBody>("GET", "/api/v1/objects/ticket/t-1")).json;
        expect(current.state).toEqual({ state: "closed" });
        return current;
      },
      { timeout: 60_000, interval: 20 },
    );
    expect(body.history).toHaveLength(2);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/racksmith_state_/);
  });

  it("answers grpc.health.v1 with SERVING", async () => {
    expect(await grpcHealthStatus(api.grpcAddress)).toBe("SERVING");
  });
});

describe("a service that cannot start", () => {
  it("names the unreachable database URL with the password redacted, and leaves nothing running", async () => {
    const error = (await startService({
      config,
      logger: silentLogger,
      overrides: { databaseUrl: "postgres://racksmith:Hunter2-Secret@127.0.0.1:1/racksmith" },
    }).catch((e: unknown) => e)) as Error & { code?: string };
    expect(error.code).toBe("database_unavailable");
    expect(error.message).toContain("127.0.0.1:1/racksmith");
    expect(error.message).not.toContain("Hunter2-Secret");
  });

  it.each([
    ["http", "0.0.0.0:0", "server.http / --http"],
    ["grpc", "[::]:0", "server.grpc / --grpc"],
    ["http", ":0", "server.http / --http"],
  ] as const)(
    "refuses to listen on %s %s beyond this machine without an auth section, naming the key",
    async (key, address, named) => {
      const unreachable = "postgres://racksmith@127.0.0.1:1/racksmith";
      const refused = (await startService({
        config,
        logger: silentLogger,
        overrides: { [key]: address, databaseUrl: unreachable },
      }).catch((e: unknown) => e)) as Error & { code?: string };
      expect(refused.code).toBe("config_invalid");
      expect(refused.message).toContain(`auth: listening on `);
      expect(refused.message).toContain(`(${named}) reaches beyond this machine`);
      // With an auth section the start goes on, to the (unreachable) database.
      const configured = { ...config, config: { ...config.config, auth: {} } };
      const started = (await startService({
        config: configured,
        logger: silentLogger,
        overrides: { [key]: address, databaseUrl: unreachable },
      }).catch((e: unknown) => e)) as Error & { code?: string };
      expect(started.code).toBe("database_unavailable");
    },
  );

  it.each([
    ["REST", "http", "server.http / --http"],
    ["gRPC", "grpc", "server.grpc / --grpc"],
  ] as const)("refuses a taken %s address before opening the database, naming it", async (name, key, fix) => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen({ host: "127.0.0.1", port: 0 }, resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      // The database is unreachable: reaching it first would answer database_unavailable instead.
      const error = (await startService({
        config,
        logger: silentLogger,
        overrides: { [key]: `127.0.0.1:${port}`, databaseUrl: "postgres://racksmith@127.0.0.1:1/racksmith" },
      }).catch((e: unknown) => e)) as Error & { code?: string };
      expect(error.code).toBe("listen_address_in_use");
      expect(error.message).toBe(
        `${name} listener 127.0.0.1:${port} is in use: stop what listens there, or choose another address (${fix})`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
