import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExploredEndpoint__Output } from "../api/grpc/generated/racksmith/v1/ExploredEndpoint.js";
import type { ListExploredEndpointsResponse__Output } from "../api/grpc/generated/racksmith/v1/ListExploredEndpointsResponse.js";
import type { Machine__Output } from "../api/grpc/generated/racksmith/v1/Machine.js";
import type { MachinesClient } from "../api/grpc/generated/racksmith/v1/Machines.js";
import type { SiteExplorerClient } from "../api/grpc/generated/racksmith/v1/SiteExplorer.js";
import { call, type ServiceHarness, startServiceHarness, waitFor } from "../testing/index.js";
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
  let api: ServiceHarness;
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
    api = await startServiceHarness({
      config: { siteExplorer: { intervalMs: 60_000, bmc: { scheme: "http", requestTimeoutMs: 2_000 } } },
      features: [createSiteExplorerFeature({ inventory: async () => inventory, standaloneLifecycle: true })],
    });
  });
  afterAll(async () => {
    await api?.close();
    await Promise.all([host.stop(), locked.stop()]);
  });

  const get = <T>(path: string) => api.request<T>("GET", path);
  const post = <T>(path: string, body?: unknown) => api.request<T>("POST", path, body);
  const endpointPath = (address: string) => `/api/v1/site-explorer/endpoints/${encodeURIComponent(address)}`;

  it("explores on start, rotates the factory password and ingests the expected host", async () => {
    const machines = await waitFor(
      async () => {
        const { json } = await get<{ machines: MachineView[] }>("/api/v1/machines");
        return json.machines.length > 0 && json.machines;
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
    const { json } = await get<{ endpoints: EndpointSummary[] }>("/api/v1/site-explorer/endpoints");
    expect(json.endpoints).toEqual(
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
    expect(endpoint.json.report?.systems[0]?.serialNumber).toBe("SER-1");
    const managed = await get<{ managedHosts: unknown[] }>("/api/v1/site-explorer/managed-hosts");
    expect(managed.json.managedHosts).toEqual([
      expect.objectContaining({ hostAddress: host.address, status: "ingested", machineId: hostId, dpus: [] }),
    ]);
    const machine = await get<MachineDetail>(`/api/v1/machines/${hostId}`);
    expect(machine.json).toMatchObject({
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
    expect(now.json).toMatchObject({ address: host.address, error: null });
    expect(now.json.report?.systems[0]?.serialNumber).toBe("SER-1");
    const failing = await post<ExploreNowResult>(`${endpointPath(locked.address)}/explore`, {});
    expect(failing.json.error).toMatchObject({ code: expect.stringMatching(/unauthorized|avoid_lockout/) });
    expect((await get<EndpointDetail>(endpointPath(host.address))).json.reportVersion).toBe(1);

    const requested = await post<{ requested: boolean }>(`${endpointPath(host.address)}/re-explore`);
    expect(requested.status).toBe(202);
    expect(requested.json).toEqual({ requested: true });
    await waitFor(
      async () => (await get<EndpointDetail>(endpointPath(host.address))).json.reportVersion === 2,
      {
        what: "the re-exploration",
      },
    );
  });

  it("never sends stored credentials to an address the inventory does not know (REST and gRPC)", async () => {
    // A listener standing in for an attacker: the same vendor as the site's factory default, a known BMC's MAC.
    const attacker = await FakeRedfishBmc.start({ password: "whatever", vendor: "Contoso" });
    try {
      const rest = await post<ExploreNowResult>(`${endpointPath(attacker.address)}/explore`, {
        mac: HOST_MAC,
      });
      expect(rest.status).toBe(200);
      expect(rest.json.error).toMatchObject({ code: "missing_credentials" });
      const explorer = api.client<SiteExplorerClient>(
        "racksmith.v1.SiteExplorer",
        "racksmith/v1/site_explorer.proto",
      );
      const grpc = await call<{ error?: { code: string } | null }>((cb) =>
        explorer.Explore({ address: attacker.address, mac: HOST_MAC }, cb),
      );
      expect(grpc.error).toMatchObject({ code: "missing_credentials" });
      // It was reached (the anonymous service-root probe), but no request carried a login.
      expect(attacker.received.length).toBeGreaterThan(0);
      expect(attacker.received.filter((request) => request.authenticated)).toEqual([]);

      // A URL with its own scheme (plain http where the site says otherwise) is refused before any request.
      const before = attacker.received.length;
      const withScheme = await post(`${endpointPath(`http://${attacker.address}`)}/explore`, {
        mac: HOST_MAC,
      });
      expect(withScheme).toMatchObject({
        status: 400,
        json: { error: { code: "invalid_argument", details: { field: "address" } } },
      });
      // A known address with another BMC's MAC is refused too.
      expect(await post(`${endpointPath(host.address)}/explore`, { mac: LOCKED_MAC })).toMatchObject({
        status: 400,
        json: { error: { code: "invalid_argument", details: { field: "mac" } } },
      });
      expect(attacker.received.length).toBe(before);

      // The caller's own login is what goes to an unknown address, and only there.
      const own = await post<ExploreNowResult>(`${endpointPath(attacker.address)}/explore`, {
        credentials: { username: "root", password: "whatever" },
      });
      expect(own.json.error).toBeNull();
      expect(attacker.received.some((request) => request.authenticated)).toBe(true);
    } finally {
      await attacker.stop();
    }
  });

  it("answers unknown endpoints and machines with 404 and a stable code", async () => {
    expect(await get(endpointPath("10.9.9.9"))).toMatchObject({
      status: 404,
      json: { error: { code: "endpoint_not_found" } },
    });
    expect(await post(`${endpointPath("10.9.9.9")}/re-explore`)).toMatchObject({ status: 404 });
    expect(await get("/api/v1/machines/host-nope")).toMatchObject({
      status: 404,
      json: { error: { code: "machine_not_found" } },
    });
  });

  it("never answers a password, and exposes metrics and OpenAPI routes", async () => {
    for (const path of [
      "/api/v1/site-explorer/endpoints",
      endpointPath(host.address),
      "/api/v1/site-explorer/managed-hosts",
    ]) {
      const { text } = await get(path);
      expect(text).not.toContain(SITE);
      expect(text).not.toContain(FACTORY);
    }
    const { text: metrics } = await get("/metrics");
    expect(metrics).toMatch(/racksmith_site_explorer_endpoints_explored_total\{result="ok"\}/);
    expect(metrics).toMatch(/racksmith_site_explorer_credential_rotations_total 1/);
    const openapi = await get<{ paths: Record<string, unknown> }>("/openapi.json");
    expect(Object.keys(openapi.json.paths)).toEqual(
      expect.arrayContaining(["/api/v1/site-explorer/endpoints/{address}/explore", "/api/v1/machines/{id}"]),
    );
  });

  it("serves the same over gRPC (racksmith.v1.SiteExplorer and racksmith.v1.Machines)", async () => {
    const explorer = api.client<SiteExplorerClient>(
      "racksmith.v1.SiteExplorer",
      "racksmith/v1/site_explorer.proto",
    );
    const machines = api.client<MachinesClient>("racksmith.v1.Machines", "racksmith/v1/site_explorer.proto");
    const listed = await call<ListExploredEndpointsResponse__Output>((cb) =>
      explorer.ListExploredEndpoints({}, cb),
    );
    expect(listed.endpoints.find((e) => e.address === locked.address)?.lastError?.code).toMatch(
      /unauthorized|avoid_lockout/,
    );
    const detail = await call<ExploredEndpoint__Output>((cb) =>
      explorer.GetExploredEndpoint({ address: host.address }, cb),
    );
    expect(JSON.parse(detail.reportJson).systems[0].serialNumber).toBe("SER-1");
    const machine = await call<Machine__Output>((cb) => machines.GetMachine({ id: hostId }, cb));
    expect(machine).toMatchObject({
      id: hostId,
      kind: "host",
      state: "created",
      history: [expect.objectContaining({ state: "created", label: "created", exitOutcome: null })],
    });
    expect(JSON.parse(machine.lifecycleJson)).toMatchObject({ stateLabel: "created", failure: null });
    await expect(call((cb) => machines.GetMachine({ id: "nope" }, cb))).rejects.toMatchObject({ code: 5 });
    await expect(call((cb) => explorer.ReExplore({ address: "" }, cb))).rejects.toMatchObject({ code: 3 });
  });
});
