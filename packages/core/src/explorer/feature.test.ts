import {
  credentials,
  type GrpcObject,
  Metadata,
  type ServiceClientConstructor,
  type ServiceError,
} from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../../test/engine/testDatabase.js";
import { loadRacksmithProto } from "../api/index.js";
import { DEFAULT_CONFIG, type LoadedConfig } from "../config/index.js";
import { silentLogger } from "../logging/index.js";
import { type RunningService, startService } from "../service/index.js";
import { FakeInventory } from "./__fixtures__/fakeInventory.js";
import { FakeRedfishBmc } from "./__fixtures__/fakeRedfishBmc.js";
import { TestCredentialStore } from "./__fixtures__/memoryCredentials.js";
import { createSiteExplorerFeature } from "./feature.js";
import { machineIdFor } from "./machineIds.js";
import type {
  EndpointDetail,
  EndpointSummary,
  ExploreNowResult,
  MachineDetail,
  MachineView,
} from "./views.js";

const FACTORY = "factory-pw-123";
const SITE = "site-pw-456";
const HOST_MAC = "AA:00:00:00:00:01";
const LOCKED_MAC = "AA:00:00:00:00:02";

describe("the site explorer feature in the service", () => {
  let service: RunningService;
  let base: string;
  let host: FakeRedfishBmc;
  let locked: FakeRedfishBmc;
  const inventory = new FakeInventory(
    new TestCredentialStore([
      [
        { kind: "factory-default", vendor: "contoso" },
        { username: "root", password: FACTORY },
      ],
      [{ kind: "site-bmc-root" }, { username: "root", password: SITE }],
    ]),
  );
  const hostId = machineIdFor("host", "SER-1");

  beforeAll(async () => {
    host = await FakeRedfishBmc.start({ password: FACTORY, serial: "SER-1" });
    locked = await FakeRedfishBmc.start({ password: "nobody-knows" });
    inventory.endpoints = [
      { address: host.address, mac: HOST_MAC },
      { address: locked.address, mac: LOCKED_MAC },
    ];
    inventory.expect(HOST_MAC, "SER-1", { dpuMode: "no-dpu" });
    const config: LoadedConfig = {
      config: {
        ...structuredClone(DEFAULT_CONFIG),
        server: { http: "127.0.0.1:0", grpc: "127.0.0.1:0" },
        siteExplorer: { intervalMs: 60_000, bmc: { scheme: "http", requestTimeoutMs: 2_000 } },
      },
      file: undefined,
      baseDir: process.cwd(),
    };
    service = await startService({
      config,
      logger: silentLogger,
      inMemoryDatabase: true,
      features: [createSiteExplorerFeature({ inventory: async () => inventory, standaloneLifecycle: true })],
    });
    base = `http://127.0.0.1:${service.http.port}`;
  });
  afterAll(async () => {
    await service.stop();
    await Promise.all([host.stop(), locked.stop()]);
  });

  const get = async <T>(path: string): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${base}${path}`);
    return { status: response.status, body: (await response.json()) as T };
  };
  const post = async <T>(path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${base}${path}`, {
      method: "POST",
      ...(body === undefined
        ? {}
        : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  const endpointPath = (address: string) => `/api/v1/site-explorer/endpoints/${encodeURIComponent(address)}`;

  it("explores on start, rotates the factory password and ingests the expected host", async () => {
    const machines = await waitFor(
      async () => {
        const { body } = await get<{ machines: MachineView[] }>("/api/v1/machines");
        return body.machines.length > 0 && body.machines;
      },
      { what: "the host to be ingested" },
    );
    expect(machines).toEqual([
      {
        id: hostId,
        kind: "host",
        state: "created",
        bmcAddress: host.address,
        bmcMac: HOST_MAC,
        serial: "SER-1",
        dpus: [],
        primaryDpu: null,
      },
    ]);
    expect(host.password).toBe(SITE);
    const { body } = await get<{ endpoints: EndpointSummary[] }>("/api/v1/site-explorer/endpoints");
    expect(body.endpoints).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          address: host.address,
          vendor: "Contoso",
          driver: "redfish-standard",
          lastError: null,
          reportVersion: 1,
        }),
        expect.objectContaining({
          address: locked.address,
          lastError: expect.objectContaining({ code: "unauthorized" }),
          reportVersion: 0,
        }),
      ]),
    );
  });

  it("serves one endpoint with its report, the managed hosts and one machine with its history", async () => {
    const endpoint = await get<EndpointDetail>(endpointPath(host.address));
    expect(endpoint.status).toBe(200);
    expect(endpoint.body.report?.systems[0]?.serialNumber).toBe("SER-1");
    const managed = await get<{ managedHosts: unknown[] }>("/api/v1/site-explorer/managed-hosts");
    expect(managed.body.managedHosts).toEqual([
      expect.objectContaining({ hostAddress: host.address, status: "ingested", machineId: hostId, dpus: [] }),
    ]);
    const machine = await get<MachineDetail>(`/api/v1/machines/${hostId}`);
    expect(machine.body).toMatchObject({
      id: hostId,
      vendor: "Contoso",
      model: "Fake 1U",
      history: [{ state: "created", label: "created", version: 1 }],
      lifecycle: { stateLabel: "created", state: { state: "created" }, failure: null },
    });
  });

  it("explores now without storing, and re-explores soon when asked", async () => {
    const now = await post<ExploreNowResult>(`${endpointPath(host.address)}/explore`);
    expect(now.status).toBe(200);
    expect(now.body).toMatchObject({ address: host.address, error: null });
    expect(now.body.report?.systems[0]?.serialNumber).toBe("SER-1");
    const failing = await post<ExploreNowResult>(`${endpointPath(locked.address)}/explore`, {});
    expect(failing.body.error).toMatchObject({ code: expect.stringMatching(/unauthorized|avoid_lockout/) });
    expect((await get<EndpointDetail>(endpointPath(host.address))).body.reportVersion).toBe(1);

    const requested = await post<{ requested: boolean }>(`${endpointPath(host.address)}/re-explore`);
    expect(requested).toEqual({ status: 202, body: { requested: true } });
    await waitFor(
      async () => (await get<EndpointDetail>(endpointPath(host.address))).body.reportVersion === 2,
      {
        what: "the re-exploration",
      },
    );
  });

  it("answers unknown endpoints and machines with 404 and a stable code", async () => {
    expect(await get(endpointPath("10.9.9.9"))).toMatchObject({
      status: 404,
      body: { error: { code: "endpoint_not_found" } },
    });
    expect(await post(`${endpointPath("10.9.9.9")}/re-explore`)).toMatchObject({ status: 404 });
    expect(await get("/api/v1/machines/host-nope")).toMatchObject({
      status: 404,
      body: { error: { code: "machine_not_found" } },
    });
  });

  it("never answers a password, and exposes metrics and OpenAPI routes", async () => {
    for (const path of [
      "/api/v1/site-explorer/endpoints",
      endpointPath(host.address),
      "/api/v1/site-explorer/managed-hosts",
    ]) {
      const text = await (await fetch(`${base}${path}`)).text();
      expect(text).not.toContain(SITE);
      expect(text).not.toContain(FACTORY);
    }
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/racksmith_site_explorer_endpoints_explored_total\{result="ok"\}/);
    expect(metrics).toMatch(/racksmith_site_explorer_credential_rotations_total 1/);
    const openapi = await get<{ paths: Record<string, unknown> }>("/openapi.json");
    expect(Object.keys(openapi.body.paths)).toEqual(
      expect.arrayContaining(["/api/v1/site-explorer/endpoints/{address}/explore", "/api/v1/machines/{id}"]),
    );
  });

  it("serves the same over gRPC (racksmith.v1.SiteExplorer and racksmith.v1.Machines)", async () => {
    const proto = loadRacksmithProto(["racksmith/v1/site_explorer.proto"]).grpc as unknown as GrpcObject;
    const v1 = (proto.racksmith as GrpcObject).v1 as GrpcObject;
    const target = `127.0.0.1:${service.grpc.port}`;
    const explorer = new (v1.SiteExplorer as ServiceClientConstructor)(target, credentials.createInsecure());
    const machines = new (v1.Machines as ServiceClientConstructor)(target, credentials.createInsecure());
    const call = <T>(client: typeof explorer, method: string, request: object) =>
      new Promise<T>((resolve, reject) =>
        (client[method] as (r: object, m: Metadata, cb: (e: ServiceError | null, v: T) => void) => void)(
          request,
          new Metadata(),
          (error, value) => (error ? reject(error) : resolve(value)),
        ),
      );
    try {
      const listed = await call<{
        endpoints: Array<{ address: string; lastError: { code: string } | null }>;
      }>(explorer, "ListExploredEndpoints", {});
      expect(listed.endpoints.find((e) => e.address === locked.address)?.lastError?.code).toMatch(
        /unauthorized|avoid_lockout/,
      );
      const detail = await call<{ reportJson: string }>(explorer, "GetExploredEndpoint", {
        address: host.address,
      });
      expect(JSON.parse(detail.reportJson).systems[0].serialNumber).toBe("SER-1");
      const machine = await call<{
        id: string;
        kind: string;
        state: string;
        history: unknown[];
        lifecycleJson: string;
      }>(machines, "GetMachine", {
        id: hostId,
      });
      expect(machine).toMatchObject({
        id: hostId,
        kind: "host",
        state: "created",
        history: [expect.objectContaining({ state: "created", label: "created" })],
      });
      expect(JSON.parse(machine.lifecycleJson)).toMatchObject({ stateLabel: "created", failure: null });
      await expect(call(machines, "GetMachine", { id: "nope" })).rejects.toMatchObject({ code: 5 });
      await expect(call(explorer, "ReExplore", { address: "" })).rejects.toMatchObject({ code: 3 });
    } finally {
      explorer.close();
      machines.close();
    }
  });
});
