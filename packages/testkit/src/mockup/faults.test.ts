import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BmcConnectionPool,
  RedfishClient,
  RedfishConnectionError,
  RedfishMalformedResponseError,
} from "@racksmith/core/redfish";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { basicAuth, http } from "./__fixtures__/http.js";
import { TINY_FULL } from "./__fixtures__/paths.js";
import { InvalidFaultRuleError } from "./errors.js";
import { FaultInjector, loadFaults } from "./faults.js";
import { MockupServer } from "./mockupServer.js";

const CREDENTIALS = { username: "root", password: "racksmith" };
const AUTH = basicAuth(CREDENTIALS.username, CREDENTIALS.password);
let server: MockupServer;
let scratch: string;
const get = (path: string, headers: Record<string, string> = AUTH) =>
  http(server.url, "GET", path, { headers });

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "racksmith-faults-"));
  server = await MockupServer.start({
    root: TINY_FULL,
    auth: "basic",
    credentials: CREDENTIALS,
    faults: [{ path: "/redfish/v1/Managers/BMC", method: "GET", status: 500, count: 1 }],
  });
});

afterAll(async () => {
  await server.stop();
  await rm(scratch, { recursive: true, force: true });
});

afterEach(() => {
  server.clearFaults();
});

describe("fault injection", () => {
  it("applies a fault given at start once, then serves normally", async () => {
    expect(server.activeFaults).toHaveLength(1);
    expect((await get("/redfish/v1/Managers/BMC")).status).toBe(500);
    expect((await get("/redfish/v1/Managers/BMC")).status).toBe(200);
  });

  it("answers an HTTP error `count` times, before authentication", async () => {
    server.addFault({ path: "/redfish/v1/Systems", status: 503, count: 2 });
    const first = await get("/redfish/v1/Systems", {});
    expect(first.status).toBe(503);
    expect(first.json).toHaveProperty("error");
    expect((await get("/redfish/v1/Systems")).status).toBe(503);
    expect((await get("/redfish/v1/Systems")).status).toBe(200);
    expect((await get("/redfish/v1/Systems", {})).status).toBe(401);
  });

  it("matches by method and by glob (* within a segment, ** across)", async () => {
    server.addFault({ path: "/redfish/v1/Systems/*/Memory/**", method: "PATCH", status: 409 });
    expect((await get("/redfish/v1/Systems/1/Memory/DIMM1")).status).toBe(200);
    const patched = await http(server.url, "PATCH", "/redfish/v1/Systems/1/Memory/DIMM1", {
      body: { Name: "x" },
      headers: AUTH,
    });
    expect(patched.status).toBe(409);
    server.clearFaults();
    server.addFault({ path: "/redfish/v1/*/1", status: 502 });
    expect((await get("/redfish/v1/Systems/1")).status).toBe(502);
    expect((await get("/redfish/v1/Systems/1/Bios")).status).toBe(200);
  });

  it("adds latency and counts the request in flight meanwhile", async () => {
    server.addFault({ path: "/redfish/v1/Managers", latencyMs: 150 });
    const started = performance.now();
    const pending = get("/redfish/v1/Managers");
    // However late the request arrives, it is seen: a poll timer set before the latency's timer (10 ms
    // against 150 ms) always fires first. The timeout only bounds how long the request may take to arrive.
    await expect.poll(() => server.stats.inFlight, { interval: 10, timeout: 20_000 }).toBe(1);
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(server.stats.inFlight).toBe(0);
  });

  it("drops the connection for a reset fault", async () => {
    server.addFault({ path: "/redfish/v1/Chassis", reset: true, count: 1 });
    await expect(get("/redfish/v1/Chassis")).rejects.toThrow();
    const client = new RedfishClient({
      address: server.url,
      credentials: CREDENTIALS,
      retry: { retries: 0 },
    });
    try {
      server.addFault({ path: "/redfish/v1/Chassis", reset: true, count: 1 });
      await expect(client.get("/redfish/v1/Chassis")).rejects.toBeInstanceOf(RedfishConnectionError);
    } finally {
      await client.close();
    }
  });

  it("answers 200 with a truncated body for a malformed fault", async () => {
    server.addFault({ path: "/redfish/v1/UpdateService", malformed: true });
    const answer = await get("/redfish/v1/UpdateService");
    expect(answer.status).toBe(200);
    expect(() => JSON.parse(answer.text)).toThrow();
    const client = new RedfishClient({
      address: server.url,
      credentials: CREDENTIALS,
      retry: { retries: 0 },
    });
    try {
      await expect(client.get("/redfish/v1/UpdateService")).rejects.toBeInstanceOf(
        RedfishMalformedResponseError,
      );
    } finally {
      await client.close();
    }
  });
});

describe("statistics", () => {
  it("counts requests by method and the peak concurrency a client's cap allows", async () => {
    server.resetStats();
    // The members are answered only once three of them are in the server together, so the peak is the cap's
    // whatever the machine's speed (rather than however many happened to overlap an injected latency).
    const { service } = server;
    const handle = service.handle;
    const held: Array<() => void> = [];
    service.handle = async (request) => {
      if (held.length < 3 && /^\/redfish\/v1\/Systems\/1\/Memory\/[^/?]+/.test(request.path)) {
        await new Promise<void>((resolve) => {
          held.push(resolve);
          if (held.length === 3) for (const release of held) release();
        });
      }
      return handle.call(service, request);
    };
    const client = new RedfishClient({
      address: server.url,
      credentials: CREDENTIALS,
      maxConcurrency: 3,
      pool: new BmcConnectionPool(),
    });
    try {
      const members = await client.getMembers("/redfish/v1/Systems/1/Memory");
      expect(members).toHaveLength(5);
    } finally {
      service.handle = handle;
      await client.close();
    }
    const stats = server.stats;
    expect(stats.total).toBe(6);
    expect(stats.byMethod).toEqual({ GET: 6 });
    expect(stats.maxInFlight).toBe(3);
    expect(stats.inFlight).toBe(0);
    server.resetStats();
    expect(server.stats).toEqual({ total: 0, byMethod: {}, inFlight: 0, maxInFlight: 0 });
  });
});

describe("fault rules", () => {
  it("loads a fault file (array or {faults}) and validates it", async () => {
    const file = join(scratch, "faults.json");
    await writeFile(
      file,
      JSON.stringify({ faults: [{ path: "/redfish/v1/Systems/**", latencyMs: 5, count: 3 }] }),
    );
    expect(await loadFaults(file)).toEqual([{ path: "/redfish/v1/Systems/**", latencyMs: 5, count: 3 }]);
  });

  it.each([
    [
      [
        { path: "/a", status: 500 },
        { path: "/b", latencyMs: "slow" },
      ],
      "faults[1].latencyMs",
    ],
    [[{ path: "/a", statuss: 500 }], "faults[0].statuss"],
    [[{ path: "a", status: 500 }], "faults[0].path"],
    [[{ path: "/a", status: 500, reset: true }], "faults[0]"],
    [[{ path: "/a", status: 700 }], "faults[0].status"],
    [[{ path: "/a", count: 0, status: 500 }], "faults[0].count"],
    [[{ path: "/a", method: "FETCH", status: 500 }], "faults[0].method"],
    [[{ path: "/a" }], "faults[0]"],
    [{ rules: [] }, "faults"],
  ])("names the bad field of %j", async (content, field) => {
    const file = join(scratch, "bad.json");
    await writeFile(file, JSON.stringify(content));
    const error = await loadFaults(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidFaultRuleError);
    expect((error as InvalidFaultRuleError).code).toBe("mockup_fault_invalid");
    expect((error as InvalidFaultRuleError).field).toBe(field);
    expect((error as Error).message).toContain(file);
  });

  it("reports a file that is not JSON", async () => {
    const file = join(scratch, "broken.json");
    await writeFile(file, "[{");
    await expect(loadFaults(file)).rejects.toThrow(/is not valid JSON/);
  });

  it("uses the first matching rule with uses left", () => {
    const injector = new FaultInjector([
      { path: "/redfish/v1/Systems", status: 500, count: 1 },
      { path: "/redfish/v1/**", latencyMs: 10 },
    ]);
    expect(injector.take("GET", "/redfish/v1/Systems/")?.outcome).toEqual({ kind: "status", status: 500 });
    expect(injector.take("GET", "/redfish/v1/Systems")).toMatchObject({ latencyMs: 10, outcome: undefined });
    expect(injector.take("GET", "/other")).toBeUndefined();
    expect(injector.rules).toHaveLength(1);
  });
});
