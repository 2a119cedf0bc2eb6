import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { hasErrorCode, isRacksmithError, normalizeMac } from "@racksmith/core";
import { type ExpectedMachine, type ExpectedMachineInput, ServiceError } from "@racksmith/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Fleet, generateScenario, startFleet } from "../fleet/index.js";
import { SimulatedSiteMismatchError } from "./errors.js";
import { registerFleet } from "./register.js";

interface FakeService {
  readonly url: string;
  /** What the service received, in order. */
  readonly requests: Array<{
    method: string;
    path: string;
    body: { machines?: ExpectedMachineInput[]; mac?: string };
  }>;
  /** The expected machines it holds, as the service shows them; a batch adds to them. */
  readonly machines: ExpectedMachine[];
  /** Overrides the batch's answer. */
  batchAnswer: { status: number; body: string } | undefined;
  stop(): Promise<void>;
}

/** An expected machine as the service shows it after storing `input`. */
function stored(input: ExpectedMachineInput): ExpectedMachine {
  return {
    bmcMac: normalizeMac(input.bmcMac) ?? input.bmcMac,
    bmcAddress: input.bmcAddress ?? null,
    factoryUsername: input.factoryUsername ?? null,
    hasFactoryPassword: input.factoryPassword !== undefined,
    chassisSerial: input.chassisSerial,
    fallbackDpuSerials: input.fallbackDpuSerials ?? [],
    dpuMode: input.dpuMode ?? "dpu",
    driver: input.driver ?? null,
    labels: input.labels ?? {},
    skuId: input.skuId ?? null,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  };
}

/**
 * The service's registration endpoints: the list of expected machines, the batch that adds to it, and
 * discoveries, each MAC leased 10.202.0.n (the same address again for a MAC it leased before).
 */
async function startFakeService(): Promise<FakeService> {
  const leases = new Map<string, string>();
  const server = createServer(async (request, response) => {
    let text = "";
    for await (const chunk of request) text += String(chunk);
    const body = JSON.parse(text || "{}");
    fake.requests.push({ method: request.method ?? "", path: request.url ?? "", body });
    const lease = (mac: string) => leases.get(mac) ?? leases.set(mac, `10.202.0.${leases.size + 1}`).get(mac);
    const batch = () => {
      fake.machines.push(...(body.machines as ExpectedMachineInput[]).map(stored));
      return { status: 200, body: JSON.stringify({ applied: body.machines.length }) };
    };
    const answer =
      request.method === "GET" && request.url === "/api/v1/expected-machines"
        ? { status: 200, body: JSON.stringify({ machines: fake.machines }) }
        : request.url === "/api/v1/expected-machines/batch"
          ? (fake.batchAnswer ?? batch())
          : { status: 200, body: JSON.stringify({ mac: body.mac, address: lease(body.mac) }) };
    response.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const fake: FakeService = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: [],
    machines: [],
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
  fake.machines.length = 0;
  fake.batchAnswer = undefined;
});

const posts = (path: string) => fake.requests.filter((r) => r.method === "POST" && r.path === path);

describe("registerFleet", () => {
  it("sends the expected machines in one batch, then a discovery per BMC, and serves each BMC at its lease", async () => {
    const registration = await registerFleet(fleet, `${fake.url}/`);
    expect(registration).toEqual({
      server: fake.url,
      expectedMachines: 3,
      alreadyExpected: 0,
      discoveries: 6,
    });
    expect(fake.requests[0]).toMatchObject({ method: "GET", path: "/api/v1/expected-machines" });
    expect(fake.requests[1]).toMatchObject({
      method: "POST",
      path: "/api/v1/expected-machines/batch",
      body: { machines: fleet.expectedMachines, mode: "add" },
    });
    const discovered = fake.requests.slice(2).map((request) => request.body.mac);
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
        if (method === "GET") return { machines: [] } as T;
        const mac = (body as { mac?: string }).mac;
        return (mac ? { mac, address: `10.203.0.${calls.length}` } : { applied: 3 }) as T;
      },
    };
    expect(await registerFleet(fleet, requester)).toEqual({
      server: "http://service.example",
      expectedMachines: 3,
      alreadyExpected: 0,
      discoveries: 6,
    });
    expect(calls.slice(0, 2)).toEqual([
      "GET /api/v1/expected-machines",
      "POST /api/v1/expected-machines/batch",
    ]);
    expect(calls.slice(2)).toEqual(Array(6).fill("POST /api/v1/dhcp/discover"));
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
    expect(posts("/api/v1/dhcp/discover")).toHaveLength(0);
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

  it("resumes when the service already holds the fleet as registered: no batch, the same leases, and says so", async () => {
    await registerFleet(fleet, fake.url);
    const first = fleet.bmcs.map((bmc) => bmc.address);
    fake.requests.length = 0;
    const again = await registerFleet(fleet, fake.url);
    expect(again).toEqual({ server: fake.url, expectedMachines: 3, alreadyExpected: 3, discoveries: 6 });
    expect(posts("/api/v1/expected-machines/batch")).toEqual([]);
    expect(posts("/api/v1/dhcp/discover")).toHaveLength(6);
    expect(fleet.bmcs.map((bmc) => bmc.address)).toEqual(first);
  });

  it("adds only the fleet's machines the service does not hold yet", async () => {
    const [held, ...rest] = fleet.expectedMachines;
    fake.machines.push(stored(held as ExpectedMachineInput));
    expect(await registerFleet(fleet, fake.url)).toMatchObject({ expectedMachines: 3, alreadyExpected: 1 });
    expect(posts("/api/v1/expected-machines/batch").map((r) => r.body.machines)).toEqual([rest]);
  });

  describe("beside another fleet's machines", () => {
    let other: Fleet;
    beforeAll(async () => {
      other = await startFleet({ scenario: generateScenario({ hosts: 2, seed: 8 }) });
    });
    afterAll(() => other?.stop());

    it("refuses the fleet's machines held with other values and, as its own site, the other fleet's, sending nothing", async () => {
      const [first, ...rest] = fleet.expectedMachines.map(stored);
      fake.machines.push(
        { ...(first as ExpectedMachine), chassisSerial: "OTHER-SERIAL", dpuMode: "nic" },
        ...rest,
        ...other.expectedMachines.map(stored),
      );
      const error = await registerFleet(fleet, fake.url, { exclusive: true }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(SimulatedSiteMismatchError);
      expect(hasErrorCode(error, "simulated_site_mismatch")).toBe(true);
      const foreign = other.expectedMachines.map((machine) => normalizeMac(machine.bmcMac)).join("; ");
      expect((error as SimulatedSiteMismatchError).differences).toEqual([
        `1 of the fleet's machines are expected with other values (${first?.bmcMac}: chassisSerial, dpuMode)`,
        `2 expected machines are not the fleet's (${foreign})`,
      ]);
      expect((error as Error).message).toMatch(
        new RegExp(
          `^${fake.url} holds another simulated site: .* — register the same fleet \\(same hosts and seed\\) to resume`,
        ),
      );
      expect(fake.requests.filter((r) => r.method === "POST")).toEqual([]);
    });

    it("registers beside them when the service is not the fleet's alone", async () => {
      fake.machines.push(...other.expectedMachines.map(stored));
      expect(await registerFleet(fleet, fake.url)).toMatchObject({ expectedMachines: 3, alreadyExpected: 0 });
      expect(posts("/api/v1/expected-machines/batch").map((r) => r.body.machines)).toEqual([
        fleet.expectedMachines,
      ]);
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
