import { chmodSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MethodDefinition, status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DhcpLease__Output } from "../../api/grpc/generated/racksmith/v1/DhcpLease.js";
import type { ExpectedMachine__Output } from "../../api/grpc/generated/racksmith/v1/ExpectedMachine.js";
import type { InventoryClient } from "../../api/grpc/generated/racksmith/v1/Inventory.js";
import { loadRacksmithProto, type ReadinessCheck } from "../../api/index.js";
import {
  call,
  grpcFailure,
  type RestResponse,
  rawHttp,
  type ServiceHarness,
  startServiceHarness,
} from "../../testing/index.js";
import type {
  ApplyExpectedMachinesResult,
  BmcEndpoint,
  DhcpLease,
  ExpectedMachine,
  ExpectedMachineRowResult,
} from "../contracts.js";
import { inventoryFeature } from "../feature.js";

const SECRET = "Fact0ry-S3cret!";

type Machines = { machines: ExpectedMachine[] };
type Readiness = { checks: ReadinessCheck[] };
type Failure = {
  error: { code: string; status: string; details: { field?: string; results: ExpectedMachineRowResult[] } };
};
const mac = (n: number) => `AA:BB:CC:DD:EE:${n.toString(16).padStart(2, "0").toUpperCase()}`;
/** Machine `i` of a large site: ~134 bytes as JSON, ~66 as protobuf. */
const siteMachine = (i: number) => ({
  bmcMac: `0A:00:00:${[i >> 16, (i >> 8) & 0xff, i & 0xff].map((b) => b.toString(16).padStart(2, "0")).join(":")}`,
  chassisSerial: `SN-${String(i).padStart(6, "0")}`,
  factoryUsername: "root",
  labels: { rack: `r${Math.floor(i / 40)}`, site: "east" },
});

describe("inventory REST and gRPC APIs (startService, in-memory database)", () => {
  const dir = mkdtempSync(join(tmpdir(), "racksmith-inventory-api-"));
  const bodies: string[] = [];
  let api: ServiceHarness;
  let client: InventoryClient;

  /** A REST request; every body answered is kept, to check none holds a password. */
  async function rest<T = unknown>(method: string, path: string, body?: unknown): Promise<RestResponse<T>> {
    const response = await api.request<T>(method, path, body);
    bodies.push(response.text);
    return response;
  }

  beforeAll(async () => {
    api = await startServiceHarness({
      config: { inventory: { dhcp: { underlayPool: "10.100.0.0/24" } } },
      configFile: join(dir, "racksmith.yaml"),
      features: [inventoryFeature],
    });
    client = api.client<InventoryClient>("racksmith.v1.Inventory", "racksmith/v1/inventory.proto");
  });
  afterAll(() => api?.close());

  describe("REST", () => {
    it("adds, reads, updates and deletes an expected machine", async () => {
      const created = await rest<ExpectedMachine>("POST", "/api/v1/expected-machines", {
        bmcMac: "aabbccddee01",
        chassisSerial: "SN-1",
        factoryUsername: "root",
        factoryPassword: SECRET,
        labels: { rack: "r1" },
      });
      expect(created.status).toBe(201);
      expect(created.json).toMatchObject({
        bmcMac: mac(1),
        hasFactoryPassword: true,
        bmcAddress: null,
        labels: { rack: "r1" },
      });
      expect(Object.keys(created.json).sort()).toEqual(
        [
          "bmcAddress",
          "bmcMac",
          "chassisSerial",
          "createdAt",
          "dpuMode",
          "driver",
          "factoryUsername",
          "fallbackDpuSerials",
          "hasFactoryPassword",
          "labels",
          "skuId",
          "updatedAt",
        ].sort(),
      );
      expect(
        (await rest<ExpectedMachine>("GET", "/api/v1/expected-machines/aa-bb-cc-dd-ee-01")).json,
      ).toEqual(created.json);
      const updated = await rest("PUT", `/api/v1/expected-machines/${mac(1)}`, {
        chassisSerial: "SN-1b",
        factoryUsername: "root",
        dpuMode: "nic",
      });
      expect(updated).toMatchObject({
        status: 200,
        json: { chassisSerial: "SN-1b", dpuMode: "nic", hasFactoryPassword: true },
      });
      expect((await rest<Machines>("GET", "/api/v1/expected-machines")).json.machines).toHaveLength(1);
      expect((await rest("DELETE", `/api/v1/expected-machines/${mac(1)}`)).status).toBe(204);
      expect((await rest("GET", "/api/v1/expected-machines")).json).toEqual({ machines: [] });
    });

    it.each([
      ["GET", `/api/v1/expected-machines/${mac(9)}`, undefined, 404, "expected_machine_not_found"],
      ["GET", "/api/v1/expected-machines/not-a-mac", undefined, 400, "invalid_argument"],
      ["DELETE", `/api/v1/expected-machines/${mac(9)}`, undefined, 404, "expected_machine_not_found"],
      [
        "PUT",
        `/api/v1/expected-machines/${mac(9)}`,
        { chassisSerial: "S" },
        404,
        "expected_machine_not_found",
      ],
      [
        "POST",
        "/api/v1/expected-machines",
        { bmcMac: mac(9), chassisSerial: "" },
        400,
        "invalid_expected_machine",
      ],
      ["POST", "/api/v1/expected-machines/batch", { machines: [], mode: "merge" }, 400, "invalid_request"],
      ["POST", "/api/v1/dhcp/discover", { mac: "nope" }, 400, "invalid_argument"],
    ])("%s %s %j → %i %s", async (method, path, body, statusCode, code) => {
      const response = await rest<Failure>(method, path, body);
      expect(response.status).toBe(statusCode);
      expect(response.json.error.code).toBe(code);
    });

    it("names the bad field, and answers 409 for a known MAC", async () => {
      const bad = await rest<Failure>("POST", "/api/v1/expected-machines", {
        bmcMac: mac(8),
        chassisSerial: "S",
        bmcAddress: "http://x",
      });
      expect(bad.json.error).toMatchObject({ details: { field: "bmcAddress" } });
      expect(
        (await rest("POST", "/api/v1/expected-machines", { bmcMac: mac(8), chassisSerial: "S" })).status,
      ).toBe(201);
      const again = await rest("POST", "/api/v1/expected-machines", { bmcMac: mac(8), chassisSerial: "S" });
      expect(again).toMatchObject({ status: 409, json: { error: { code: "expected_machine_exists" } } });
      await rest("DELETE", `/api/v1/expected-machines/${mac(8)}`);
    });

    it("applies a batch all or nothing, or the good rows with acceptPartial; replace-all replaces", async () => {
      const machines = [
        { bmcMac: mac(1), chassisSerial: "SN-1", factoryUsername: "root", factoryPassword: SECRET },
        { bmcMac: mac(2), chassisSerial: " " },
        "not an object",
      ];
      const rejected = await rest<Failure>("POST", "/api/v1/expected-machines/batch", {
        machines,
        mode: "add",
      });
      expect(rejected.status).toBe(400);
      expect(rejected.json.error).toMatchObject({
        code: "expected_machines_rejected",
        status: "INVALID_ARGUMENT",
      });
      expect(rejected.json.error.details.results.map((r) => r.ok)).toEqual([true, false, false]);
      expect(rejected.json.error.details.results[2]?.error?.message).toBe("machine: must be an object");
      expect((await rest<Machines>("GET", "/api/v1/expected-machines")).json.machines).toEqual([]);

      const partial = await rest<ApplyExpectedMachinesResult>("POST", "/api/v1/expected-machines/batch", {
        machines,
        mode: "add",
        acceptPartial: true,
      });
      expect(partial).toMatchObject({ status: 200, json: { applied: 1, deleted: 0 } });
      expect(partial.json.results).toHaveLength(3);

      const replaced = await rest("POST", "/api/v1/expected-machines/batch", {
        machines: [{ bmcMac: mac(3), chassisSerial: "SN-3", bmcAddress: "10.200.0.3" }],
        mode: "replace-all",
      });
      expect(replaced.json).toEqual({
        applied: 1,
        deleted: 1,
        results: [{ index: 0, bmcMac: mac(3), ok: true }],
      });
      expect(
        (await rest<Machines>("GET", "/api/v1/expected-machines")).json.machines.map((m) => m.bmcMac),
      ).toEqual([mac(3)]);
    });

    it("hands out DHCP addresses and lists leases and BMC endpoints", async () => {
      const lease = await rest<DhcpLease>("POST", "/api/v1/dhcp/discover", {
        mac: "02:00:00:00:00:01",
        vendorClass: "XCC",
      });
      expect(lease).toMatchObject({
        status: 200,
        json: {
          mac: "02:00:00:00:00:01",
          address: expect.stringMatching(/^10\.100\.0\./),
          static: false,
          vendorClass: "XCC",
          relay: null,
        },
      });
      const leases = (await rest<{ leases: DhcpLease[] }>("GET", "/api/v1/dhcp/leases")).json.leases;
      expect(leases).toEqual([lease.json]);
      expect(
        (await rest<{ endpoints: BmcEndpoint[] }>("GET", "/api/v1/bmc-endpoints")).json.endpoints,
      ).toEqual(
        expect.arrayContaining([
          { address: lease.json.address, mac: "02:00:00:00:00:01" },
          { address: "10.200.0.3", mac: mac(3) },
        ]),
      );
    });

    it("documents its routes in the OpenAPI document", async () => {
      const paths = Object.keys((await rest<{ paths: object }>("GET", "/openapi.json")).json.paths);
      expect(paths).toEqual(
        expect.arrayContaining([
          "/api/v1/expected-machines",
          "/api/v1/expected-machines/{bmcMac}",
          "/api/v1/expected-machines/batch",
          "/api/v1/dhcp/discover",
          "/api/v1/dhcp/leases",
          "/api/v1/bmc-endpoints",
        ]),
      );
    });
  });

  describe("REST request size", () => {
    /** Sends only the headers of a POST declaring `contentLength` bytes: the limit is checked before the body. */
    async function declaring(
      path: string,
      contentLength: number,
    ): Promise<{ status: number; json: Failure }> {
      const raw = await rawHttp(api.service.http.port);
      raw.socket.write(
        `POST ${path} HTTP/1.1\r\nHost: racksmith\r\nAuthorization: Bearer ${api.adminToken}\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n`,
      );
      await raw.closed;
      const text = raw.received();
      const [head = "", body = ""] = text.split("\r\n\r\n");
      return { status: Number(head.split(" ")[1]), json: JSON.parse(body) as Failure };
    }

    it("replaces all with a batch over 1 MiB (10,000 machines) in one request", async () => {
      const machines = Array.from({ length: 10_000 }, (_, i) => siteMachine(i));
      const body = { machines, mode: "replace-all" };
      expect(JSON.stringify(body).length).toBeGreaterThan(1024 * 1024);
      const replaced = await rest<ApplyExpectedMachinesResult>(
        "POST",
        "/api/v1/expected-machines/batch",
        body,
      );
      expect(replaced.status).toBe(200);
      expect(replaced.json).toMatchObject({ applied: 10_000 });
      expect((await rest<Machines>("GET", "/api/v1/expected-machines")).json.machines).toHaveLength(10_000);
      await rest("POST", "/api/v1/expected-machines/batch", { machines: [], mode: "replace-all" });
    });

    it("answers 413 request_too_large in the error format over the route's limit (64 MiB batch, 1 MiB else)", async () => {
      const batch = await declaring("/api/v1/expected-machines/batch", 64 * 1024 * 1024 + 1);
      expect(batch.status).toBe(413);
      expect(batch.json.error).toEqual({
        code: "request_too_large",
        status: "RESOURCE_EXHAUSTED",
        message:
          "request body is larger than 67108864 bytes, the limit of POST /api/v1/expected-machines/batch",
        details: { limitBytes: 64 * 1024 * 1024 },
      });
      const single = await declaring("/api/v1/expected-machines", 1024 * 1024 + 1);
      expect(single.status).toBe(413);
      expect(single.json.error).toMatchObject({
        code: "request_too_large",
        details: { limitBytes: 1024 * 1024 },
      });
    });
  });

  describe("gRPC racksmith.v1.Inventory", () => {
    it("adds, gets, lists, updates and deletes, with optional fields absent rather than empty", async () => {
      const added = await call<ExpectedMachine__Output>((cb) =>
        client.AddExpectedMachine(
          {
            machine: {
              bmcMac: mac(0x20),
              chassisSerial: "G-1",
              factoryUsername: "root",
              factoryPassword: SECRET,
              labels: { a: "b" },
            },
          },
          cb,
        ),
      );
      expect(added).toMatchObject({
        bmcMac: mac(0x20),
        hasFactoryPassword: true,
        dpuMode: "dpu",
        labels: { a: "b" },
      });
      expect(added.bmcAddress).toBeUndefined();
      expect(await call((cb) => client.GetExpectedMachine({ bmcMac: mac(0x20) }, cb))).toEqual(added);
      const updated = await call<ExpectedMachine__Output>((cb) =>
        client.UpdateExpectedMachine(
          { machine: { bmcMac: mac(0x20), chassisSerial: "G-1b", bmcAddress: "10.200.0.32" } },
          cb,
        ),
      );
      expect(updated).toMatchObject({
        chassisSerial: "G-1b",
        bmcAddress: "10.200.0.32",
        hasFactoryPassword: false,
      });
      const list = await call<{ machines: Array<{ bmcMac: string }> }>((cb) =>
        client.ListExpectedMachines({}, cb),
      );
      expect(list.machines.map((m) => m.bmcMac)).toContain(mac(0x20));
      await call((cb) => client.DeleteExpectedMachine({ bmcMac: mac(0x20) }, cb));
      expect(await grpcFailure(call((cb) => client.GetExpectedMachine({ bmcMac: mac(0x20) }, cb)))).toEqual({
        code: status.NOT_FOUND,
        details: `no expected machine has BMC MAC ${mac(0x20)}`,
        errorCode: "expected_machine_not_found",
      });
      expect(
        await grpcFailure(call((cb) => client.AddExpectedMachine({ machine: { bmcMac: "x" } }, cb))),
      ).toMatchObject({
        code: status.INVALID_ARGUMENT,
        errorCode: "invalid_expected_machine",
      });
    });

    it("creates many all or nothing, or partially, and replaces all", async () => {
      const machines = [
        { bmcMac: mac(0x21), chassisSerial: "G-21" },
        { bmcMac: mac(0x21), chassisSerial: "G-21 again" },
      ];
      const rejected = await grpcFailure(call((cb) => client.CreateExpectedMachines({ machines }, cb)));
      expect(rejected).toMatchObject({
        code: status.INVALID_ARGUMENT,
        errorCode: "expected_machines_rejected",
      });
      expect(rejected.details).toContain(
        "machines[0] AA:BB:CC:DD:EE:21: bmcMac: AA:BB:CC:DD:EE:21 is also in machines[1]",
      );
      const partial = await call<{ applied: number; results: Array<{ ok: boolean; error: unknown }> }>((cb) =>
        client.CreateExpectedMachines(
          { machines: [...machines, { bmcMac: mac(0x22), chassisSerial: "G-22" }], acceptPartial: true },
          cb,
        ),
      );
      expect(partial.applied).toBe(1);
      expect(partial.results.map((r) => r.ok)).toEqual([false, false, true]);
      expect(partial.results[2]?.error).toBeNull();
      const replaced = await call<{ applied: number; deleted: number }>((cb) =>
        client.ReplaceAllExpectedMachines({ machines: [{ bmcMac: mac(0x23), chassisSerial: "G-23" }] }, cb),
      );
      expect(replaced).toMatchObject({ applied: 1 });
      expect(replaced.deleted).toBeGreaterThanOrEqual(1);
      const list = await call<{ machines: Array<{ bmcMac: string }> }>((cb) =>
        client.ListExpectedMachines({}, cb),
      );
      expect(list.machines.map((m) => m.bmcMac)).toEqual([mac(0x23)]);
    });

    it("receives a replace-all over grpc-js's default 4 MiB message limit", async () => {
      // What must be large is the message, not the row count: 70,000 small rows took seconds of CPU to build,
      // encode, decode and check, and ran into the test's timeout on a busy machine. 1,200 rows with 16 labels
      // of 256 characters each (~4.4 KB as protobuf) make the same size at a fraction of the work.
      const notes = Object.fromEntries(
        Array.from({ length: 16 }, (_, k) => [`note-${k}`, `${k}:`.padEnd(256, "x")]),
      );
      const machines = Array.from({ length: 1_200 }, (_, i) => {
        const machine = siteMachine(i);
        return { ...machine, labels: { ...machine.labels, ...notes } };
      });
      // The first row again at the end: rejected as a whole after the message is read, so nothing is written.
      const request = { machines: [...machines, siteMachine(0)] };
      const { definition } = loadRacksmithProto(["racksmith/v1/inventory.proto"]);
      const method = (
        definition["racksmith.v1.Inventory"] as Record<string, MethodDefinition<object, object>>
      ).ReplaceAllExpectedMachines;
      expect(method?.requestSerialize(request).length).toBeGreaterThan(4 * 1024 * 1024);
      const rejected = await grpcFailure(call((cb) => client.ReplaceAllExpectedMachines(request, cb)));
      expect(rejected).toMatchObject({
        code: status.INVALID_ARGUMENT,
        errorCode: "expected_machines_rejected",
      });
      expect(rejected.details).toMatch(/^2 of 1201 expected machines rejected, nothing applied/);
    });

    it("discovers DHCP and lists leases and endpoints", async () => {
      const lease = await call<DhcpLease__Output>((cb) =>
        client.DiscoverDhcp({ mac: "02:00:00:00:00:02", relay: "10.1.0.1" }, cb),
      );
      expect(lease).toMatchObject({ mac: "02:00:00:00:00:02", relay: "10.1.0.1", static: false });
      expect(lease.vendorClass).toBeUndefined();
      const leases = await call<{ leases: Array<{ mac: string }> }>((cb) => client.ListDhcpLeases({}, cb));
      expect(leases.leases.map((l) => l.mac)).toContain("02:00:00:00:00:02");
      const endpoints = await call<{ endpoints: Array<{ mac: string; address: string }> }>((cb) =>
        client.ListBmcEndpoints({}, cb),
      );
      expect(endpoints.endpoints).toContainEqual({ mac: "02:00:00:00:00:02", address: lease.address });
    });
  });

  it("never answers with a factory password, and keeps it encrypted in the configured directory", async () => {
    await rest("POST", "/api/v1/expected-machines", {
      bmcMac: mac(0x30),
      chassisSerial: "SN-30",
      factoryUsername: "root",
      factoryPassword: SECRET,
    });
    expect(bodies.length).toBeGreaterThan(10);
    for (const body of bodies) expect(body).not.toContain(SECRET);
    const directory = join(dir, ".racksmith/credentials");
    expect(readdirSync(directory)).toEqual(["bmc-factory.AA-BB-CC-DD-EE-30.secret"]);
    for (const name of readdirSync(directory))
      expect(readFileSync(join(directory, name), "utf8")).not.toContain(SECRET);
  });

  it.skipIf(process.platform === "win32")(
    "is not ready while the credentials key file is readable by others",
    async () => {
      const ready = await rest<Readiness>("GET", "/readyz");
      expect(ready.status).toBe(200);
      expect(ready.json.checks).toContainEqual(expect.objectContaining({ name: "credentials", ok: true }));
      const keyFile = join(dir, ".racksmith/credentials.key");
      chmodSync(keyFile, 0o644);
      try {
        const unready = await rest<Readiness>("GET", "/readyz");
        expect(unready.status).toBe(503);
        expect(unready.json.checks).toContainEqual({
          name: "credentials",
          ok: false,
          detail:
            "credential store unusable: the key file is accessible by group or others (mode 0644); run: chmod 600 the key file",
        });
        // Neither readiness nor the version shows where the service keeps its files.
        expect(JSON.stringify(unready.json)).not.toContain(dir);
        expect(JSON.stringify((await rest("GET", "/api/v1/version")).json)).not.toContain(dir);
      } finally {
        chmodSync(keyFile, 0o600);
      }
    },
  );
});
