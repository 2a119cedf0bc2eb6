import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { hasErrorCode, isRacksmithError } from "@racksmith/core";
import { ServiceError } from "@racksmith/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Fleet, generateScenario, startFleet } from "../fleet/index.js";
import { registerFleet } from "./register.js";

interface FakeService {
  readonly url: string;
  /** What the service received, in order. */
  readonly requests: Array<{ method: string; path: string; body: { machines?: unknown[]; mac?: string } }>;
  /** Overrides the batch's answer. */
  batchAnswer: { status: number; body: string } | undefined;
  stop(): Promise<void>;
}

/** The service's two registration endpoints: the batch applies every machine, a discovery leases 10.202.0.n. */
async function startFakeService(): Promise<FakeService> {
  let leases = 0;
  const server = createServer(async (request, response) => {
    let text = "";
    for await (const chunk of request) text += String(chunk);
    const body = JSON.parse(text || "{}");
    fake.requests.push({ method: request.method ?? "", path: request.url ?? "", body });
    const answer =
      request.url === "/api/v1/expected-machines/batch"
        ? (fake.batchAnswer ?? { status: 200, body: JSON.stringify({ applied: body.machines.length }) })
        : { status: 200, body: JSON.stringify({ mac: body.mac, address: `10.202.0.${++leases}` }) };
    response.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const fake: FakeService = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: [],
    batchAnswer: undefined,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return fake;
}

let fleet: Fleet;
let fake: FakeService;

beforeAll(async () => {
  fleet = await startFleet({ scenario: generateScenario({ hosts: 3, seed: 7 }) });
  fake = await startFakeService();
});

afterAll(async () => {
  await fake?.stop();
  await fleet?.stop();
});

afterEach(() => {
  fake.requests.length = 0;
  fake.batchAnswer = undefined;
});

describe("registerFleet", () => {
  it("sends the expected machines in one batch, then a discovery per BMC, and serves each BMC at its lease", async () => {
    const registration = await registerFleet(fleet, `${fake.url}/`);
    expect(registration).toEqual({ server: fake.url, expectedMachines: 3, discoveries: 6 });
    expect(fake.requests[0]).toMatchObject({
      method: "POST",
      path: "/api/v1/expected-machines/batch",
      body: { machines: fleet.expectedMachines, mode: "add" },
    });
    const discovered = fake.requests.slice(1).map((request) => request.body.mac);
    expect(discovered.sort()).toEqual(fleet.discoveries.map((discovery) => discovery.mac).sort());
    const addresses = fleet.bmcs.map((bmc) => bmc.address);
    expect(new Set(addresses).size).toBe(6);
    expect(addresses.every((address) => address?.startsWith("10.202.0."))).toBe(true);
  });

  it("calls the service through a requester it is given (the CLI's own client)", async () => {
    const calls: string[] = [];
    const requester: Parameters<typeof registerFleet>[1] = {
      base: "http://service.example",
      async request<T>(method: string, path: string, body?: unknown): Promise<T> {
        calls.push(`${method} ${path}`);
        const mac = (body as { mac?: string }).mac;
        return (mac ? { mac, address: `10.203.0.${calls.length}` } : { applied: 3 }) as T;
      },
    };
    expect(await registerFleet(fleet, requester)).toEqual({
      server: "http://service.example",
      expectedMachines: 3,
      discoveries: 6,
    });
    expect(calls[0]).toBe("POST /api/v1/expected-machines/batch");
    expect(calls.slice(1)).toEqual(Array(6).fill("POST /api/v1/dhcp/discover"));
    expect(fake.requests).toEqual([]);
  });

  it("throws the service's error with its code and details, and sends no discovery after a rejected batch", async () => {
    const details = { results: [{ index: 1, ok: false, error: { message: "bmcMac is already expected" } }] };
    fake.batchAnswer = {
      status: 400,
      body: JSON.stringify({
        error: {
          code: "expected_machines_rejected",
          status: "INVALID_ARGUMENT",
          message: "1 of the expected machines was rejected; nothing was applied",
          details,
        },
      }),
    };
    const error = await registerFleet(fleet, fake.url).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceError);
    expect(hasErrorCode(error, "expected_machines_rejected")).toBe(true);
    expect(error).toMatchObject({ status: "INVALID_ARGUMENT", details });
    expect(fake.requests).toHaveLength(1);
  });

  it("names the HTTP status of an answer without a Racksmith error body", async () => {
    fake.batchAnswer = { status: 502, body: "<html>bad gateway</html>" };
    const error = await registerFleet(fleet, fake.url).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: "http_502",
      status: "INTERNAL",
      message: "POST /api/v1/expected-machines/batch answered HTTP 502",
    });
  });

  it("says which service it cannot reach", async () => {
    const closed = await startFakeService();
    await closed.stop();
    const error = await registerFleet(fleet, closed.url).catch((caught: unknown) => caught);
    expect(isRacksmithError(error) && hasErrorCode(error, "service_unreachable")).toBe(true);
    expect((error as Error).message).toBe(
      `cannot reach the Racksmith service at ${closed.url}: ECONNREFUSED`,
    );
  });
});
