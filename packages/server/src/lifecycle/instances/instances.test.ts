import type { Metadata, ServiceError } from "@grpc/grpc-js";
import type { HealthProbeAlert } from "@racksmith/core/health";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Instance__Output } from "../../api/grpc/generated/racksmith/v1/Instance.js";
import type { InstancesClient } from "../../api/grpc/generated/racksmith/v1/Instances.js";
import { type ApiHarness, call, startApiHarness } from "../../testing/index.js";
import { clearSite, insertHost, parkedManagedHostMachine, placeHost } from "../agents/__fixtures__/site.js";
import { instancesGrpcServices } from "./grpcService.js";
import { InstanceService } from "./instanceService.js";
import type { InstanceView } from "./instanceView.js";
import { instancesRestRoutes } from "./restRoutes.js";

let api: ApiHarness;
let service: InstanceService;
let client: InstancesClient;
const blockers = new Map<string, HealthProbeAlert[]>();
let now = new Date("2026-04-01T08:00:00.000Z");

const config = { network: { interfaces: [{ function: "pf0", network: "blue" }] } };
const ready = { state: "ready" } as const;

async function failure(promise: Promise<unknown>) {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as { code: string; status: string; message: string },
  );
}

beforeAll(async () => {
  api = await startApiHarness({
    name: "instances",
    machines: [parkedManagedHostMachine()],
    apis: (context) => {
      service = new InstanceService({
        ...context,
        clock: () => now,
        allocationBlockers: async (hostId) => blockers.get(hostId) ?? [],
        hostAlerts: async (hostId) => blockers.get(hostId) ?? [],
      });
      return { rest: [instancesRestRoutes(service)], grpc: instancesGrpcServices(service, context.logger) };
    },
  });
  client = api.client<InstancesClient>("racksmith.v1.Instances", "racksmith/v1/instances.proto");
});
afterAll(() => api?.close());
beforeEach(async () => {
  await clearSite(api.database);
  blockers.clear();
  api.enqueued.length = 0;
  now = new Date("2026-04-01T08:00:00.000Z");
  await insertHost(api.database, {
    id: "h-1",
    dpus: [
      { id: "d-1", hostFacingMac: "B8:3F:D2:00:00:01", primary: true },
      { id: "d-2", hostFacingMac: "B8:3F:D2:00:00:02" },
    ],
  });
  await placeHost(api.engine, api.database, "h-1", ready);
});

describe("allocate", () => {
  it("allocates a Ready host, enqueues it and shows the instance Provisioning", async () => {
    const instance = await service.allocate({ tenantOrg: "acme", machineId: "h-1", config, name: "web" });
    expect(instance).toMatchObject({
      name: "web",
      machineId: "h-1",
      tenantOrg: "acme",
      instanceType: null,
      config,
      configVersion: 1,
      createdAt: now.toISOString(),
      releaseRequestedAt: null,
      terminatedAt: null,
      releaseIssue: null,
      status: {
        tenantState: "Provisioning",
        hostState: "ready",
        configsSynced: { aggregate: "pending", subsystems: { network: "pending" } },
      },
    });
    expect(instance.id).toMatch(/^i-[0-9a-f]+$/);
    expect(api.enqueued).toEqual(["h-1"]);
    expect(
      (await service.allocate({ tenantOrg: "acme", machineId: "h-1", config }).catch((e) => e)).code,
    ).toBe("host_already_allocated");
  });

  it("names the instance after its id by default and takes no config as no interfaces", async () => {
    const instance = await service.allocate({ tenantOrg: "acme", machineId: "h-1" });
    expect(instance.name).toBe(instance.id);
    expect(instance.config).toEqual({ network: { interfaces: [] } });
  });

  it.each([
    [{ tenantOrg: "", machineId: "h-1" }, "INVALID_ARGUMENT", /tenantOrg is required/],
    [{ tenantOrg: "acme" }, "INVALID_ARGUMENT", /machineId or instanceType is required/],
    [{ tenantOrg: "acme", machineId: "h-1", instanceType: "gb200" }, "INVALID_ARGUMENT", /not both/],
    [{ tenantOrg: "acme", machineId: "d-1" }, "INVALID_ARGUMENT", /d-1 is a DPU \(of host h-1\)/],
    [{ tenantOrg: "acme", machineId: "ghost" }, "NOT_FOUND", /no machine ghost/],
    [
      {
        tenantOrg: "acme",
        machineId: "h-1",
        config: { network: { interfaces: [{ function: "x", network: "a" }] } },
      },
      "INVALID_ARGUMENT",
      /config\.network\.interfaces\[0\]\.function/,
    ],
  ])("refuses %j", async (input, status, message) => {
    const error = await failure(service.allocate(input));
    expect(error.status).toBe(status);
    expect(error.message).toMatch(message);
  });

  it("refuses a host that is not Ready, naming its state", async () => {
    await placeHost(api.engine, api.database, "h-1", {
      state: "hostInit",
      machineState: { step: "enableLockdown" },
    });
    const error = await failure(service.allocate({ tenantOrg: "acme", machineId: "h-1" }));
    expect(error).toMatchObject({ status: "FAILED_PRECONDITION", code: "host_not_ready" });
    expect(error.message).toContain("hostInit/enableLockdown");
  });

  it("refuses a host with allocation-blocking alerts, naming each", async () => {
    blockers.set("h-1", [
      {
        id: "HeartbeatTimeout",
        target: "d-1",
        message: "no DPU agent report for 6 min",
        classifications: [],
      },
      { id: "Maintenance", message: "rack work", classifications: [] },
    ]);
    const error = await failure(service.allocate({ tenantOrg: "acme", machineId: "h-1" }));
    expect(error).toMatchObject({ status: "FAILED_PRECONDITION", code: "allocation_blocked" });
    expect(error.message).toContain("HeartbeatTimeout (d-1): no DPU agent report for 6 min");
    expect(error.message).toContain("Maintenance: rack work");
  });

  it("lets exactly one of 10 concurrent allocations of one host win", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => service.allocate({ tenantOrg: `t-${i}`, machineId: "h-1" })),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.flatMap((r) => (r.status === "rejected" ? [r.reason as { code: string }] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(9);
    expect(new Set(lost.map((e) => e.code))).toEqual(new Set(["host_already_allocated"]));
    expect(await service.find({ machineId: "h-1" })).toHaveLength(1);
  });

  describe("by instance type", () => {
    beforeEach(async () => {
      for (const id of ["h-2", "h-3", "h-4"])
        await insertHost(api.database, { id, bmcMac: `0A:00:00:00:00:0${id.at(-1)}` });
      for (const [id, sku] of [
        ["h-2", "gb200"],
        ["h-3", "gb200"],
        ["h-4", "h100"],
      ] as const) {
        await placeHost(api.engine, api.database, id, ready);
        await api.database.db
          .insertInto("expected_machines")
          .values({
            bmc_mac: `0A:00:00:00:00:0${id.at(-1)}`,
            bmc_address: null,
            bmc_address_ipv4: null,
            factory_username: null,
            has_factory_password: false,
            chassis_serial: `CS-${id}`,
            fallback_dpu_serials: "[]",
            dpu_mode: "dpu",
            driver: null,
            labels: "{}",
            sku_id: sku,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
    });

    it("picks a free Ready host of the SKU, skipping blocked and allocated ones", async () => {
      blockers.set("h-2", [{ id: "Quarantine", message: "q", classifications: [] }]);
      const first = await service.allocate({ tenantOrg: "acme", instanceType: "gb200" });
      expect(first).toMatchObject({ machineId: "h-3", instanceType: "gb200" });
      const error = await failure(service.allocate({ tenantOrg: "acme", instanceType: "gb200" }));
      expect(error).toMatchObject({ status: "FAILED_PRECONDITION", code: "no_host_available" });
      expect(error.message).toContain("gb200");
      blockers.clear();
      expect(await service.allocate({ tenantOrg: "acme", instanceType: "gb200" })).toMatchObject({
        machineId: "h-2",
      });
    });

    it("hands out each host once under concurrent allocations", async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, () => service.allocate({ tenantOrg: "acme", instanceType: "gb200" })),
      );
      const hosts = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.machineId] : []));
      expect(hosts.sort()).toEqual(["h-2", "h-3"]);
    });
  });
});

describe("health alerts a tenant sees", () => {
  it("shows only alerts with a tenant message, as that message, on every API", async () => {
    const instance = await service.allocate({ tenantOrg: "acme", machineId: "h-1", config });
    blockers.set("h-1", [
      {
        id: "BmcSensor",
        target: "fan1",
        message: "fan1 at 300 RPM",
        tenantMessage: "Cooling degraded",
        classifications: ["Hardware"],
      },
      { id: "Maintenance", message: "rack 7 work by ops", classifications: ["PreventAllocations"] },
    ]);
    const expected = [{ id: "BmcSensor", target: "fan1", message: "Cooling degraded" }];
    expect((await service.get(instance.id)).status.healthAlerts).toEqual(expected);
    const viaRest = await api.rest.inject({ method: "GET", url: `/api/v1/instances/${instance.id}` });
    expect(viaRest.json().status.healthAlerts).toEqual(expected);
  });
});

describe("release, updateConfig, find", () => {
  it("releases idempotently, keeping the first request's time and issue", async () => {
    const { id } = await service.allocate({ tenantOrg: "acme", machineId: "h-1" });
    api.enqueued.length = 0;
    const released = await service.release(id, { category: "hardware", summary: "GPU 3 throttles" });
    expect(released).toMatchObject({
      releaseRequestedAt: now.toISOString(),
      releaseIssue: { category: "hardware", summary: "GPU 3 throttles" },
      status: { tenantState: "Terminating" },
    });
    const first = now;
    now = new Date("2026-04-01T09:00:00.000Z");
    const again = await service.release(id, { category: "other", summary: "" });
    expect(again.releaseRequestedAt).toBe(first.toISOString());
    expect(again.releaseIssue).toEqual({ category: "hardware", summary: "GPU 3 throttles" });
    expect(api.enqueued).toEqual(["h-1", "h-1"]);
    expect((await failure(service.release(id, { category: "bogus" }))).message).toMatch(/issue\.category/);
    // The lifecycle terminates it; then it can no longer be released, and only shows when asked.
    await api.database.db.updateTable("instances").set({ terminated_at: now }).where("id", "=", id).execute();
    expect(await failure(service.release(id))).toMatchObject({ status: "FAILED_PRECONDITION" });
    expect(await service.find({ tenantOrg: "acme" })).toEqual([]);
    const all = await service.find({ tenantOrg: "acme", includeTerminated: true });
    expect(all.map((i) => [i.id, i.status.tenantState])).toEqual([[id, "Terminated"]]);
    expect(await failure(service.release("i-nope"))).toMatchObject({ status: "NOT_FOUND" });
  });

  it("bumps the config version, honours ifVersionMatch and refuses a released instance", async () => {
    const { id } = await service.allocate({ tenantOrg: "acme", machineId: "h-1", config });
    const next = { network: { interfaces: [{ function: "pf0vf1", network: "red" }] } };
    const updated = await service.updateConfig(id, next, 1);
    expect(updated).toMatchObject({ config: next, configVersion: 2 });
    const stale = await failure(service.updateConfig(id, config, 1));
    expect(stale).toMatchObject({ status: "FAILED_PRECONDITION", code: "config_version_mismatch" });
    expect(stale.message).toContain("version 2");
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => service.updateConfig(id, config)));
    expect(concurrent.map((i) => i.configVersion).sort()).toEqual([3, 4, 5, 6, 7]);
    await service.release(id);
    expect(await failure(service.updateConfig(id, config))).toMatchObject({
      status: "FAILED_PRECONDITION",
      code: "instance_released",
    });
  });

  it("lists newest first, by tenant or host", async () => {
    await insertHost(api.database, { id: "h-2" });
    await placeHost(api.engine, api.database, "h-2", ready);
    const a = await service.allocate({ tenantOrg: "acme", machineId: "h-1" });
    now = new Date("2026-04-01T08:01:00.000Z");
    const b = await service.allocate({ tenantOrg: "acme", machineId: "h-2" });
    expect((await service.find({ tenantOrg: "acme" })).map((i) => i.id)).toEqual([b.id, a.id]);
    expect((await service.find({ machineId: "h-1" })).map((i) => i.id)).toEqual([a.id]);
    expect(await service.find({ tenantOrg: "other" })).toEqual([]);
  });
});

describe("a tenant caller's scope", () => {
  it("finds, reads, releases and reconfigures only its own org's instances; another org's are not found", async () => {
    await insertHost(api.database, { id: "h-2" });
    await placeHost(api.engine, api.database, "h-2", ready);
    const mine = await service.allocate({ tenantOrg: "acme", machineId: "h-1" }, "acme");
    const theirs = await service.allocate({ tenantOrg: "globex", machineId: "h-2" });
    expect((await service.find({}, "acme")).map((i) => i.id)).toEqual([mine.id]);
    expect(await service.find({ tenantOrg: "globex" }, "acme")).toEqual([]);
    expect((await service.find({})).map((i) => i.id).sort()).toEqual([mine.id, theirs.id].sort());
    for (const attempt of [
      () => service.get(theirs.id, "acme"),
      () => service.release(theirs.id, undefined, "acme"),
      () => service.updateConfig(theirs.id, config, undefined, "acme"),
    ]) {
      expect(await failure(attempt())).toMatchObject({ code: "instance_not_found", status: "NOT_FOUND" });
    }
    expect((await service.get(theirs.id)).releaseRequestedAt).toBeNull();
    expect((await service.get(theirs.id)).configVersion).toBe(theirs.configVersion);
    expect((await service.release(mine.id, undefined, "acme")).releaseRequestedAt).not.toBeNull();
  });

  it("allocates for its own org only: another org is not found, and it may leave its own out", async () => {
    expect(await failure(service.allocate({ tenantOrg: "globex", machineId: "h-1" }, "acme"))).toMatchObject({
      code: "tenant_not_found",
      message: "no tenant org globex",
    });
    expect((await service.allocate({ machineId: "h-1" }, "acme")).tenantOrg).toBe("acme");
  });

  it("reaches the service from REST and gRPC with the caller the gate admitted", async () => {
    const theirs = await service.allocate({ tenantOrg: "globex", machineId: "h-1" });
    const rest = await api.rest.inject({
      method: "GET",
      url: `/api/v1/instances/${theirs.id}`,
      headers: { authorization: "Test tenant:acme" },
    });
    expect(rest.statusCode).toBe(404);
    const scoped = api.client<InstancesClient>("racksmith.v1.Instances", "racksmith/v1/instances.proto", {
      authorization: "Test tenant:acme",
    });
    const refused = await failure(call((cb) => scoped.GetInstance({ id: theirs.id }, cb)));
    expect(refused).toMatchObject({ code: 5 });
    const listed = await call<{ instances: Instance__Output[] }>((cb) => scoped.FindInstances({}, cb));
    expect(listed.instances).toEqual([]);
  });
});

describe("derived status", () => {
  async function reportNetwork(dpuId: string, hostVersion: number, instanceVersion: number | null) {
    const observation = {
      observedAt: now.toISOString(),
      appliedManagedHostConfigVersion: hostVersion,
      appliedInstanceConfigVersion: instanceVersion,
      interfaces: [],
      health: { source: "forge-dpu-agent", successes: [], alerts: [] },
      agentVersion: "1",
    };
    await api.database.db
      .insertInto("machine_reports")
      .values({ machine_id: dpuId, network_status: JSON.stringify(observation), updated_at: now })
      .onConflict((c) => c.column("machine_id").doUpdateSet({ network_status: JSON.stringify(observation) }))
      .execute();
  }

  it("follows the host through the instance's lifecycle", async () => {
    const { id } = await service.allocate({ tenantOrg: "acme", machineId: "h-1", config });
    await api.database.db
      .insertInto("managed_hosts")
      .values({ host_id: "h-1", use_admin_network: false, network_config_version: 2, updated_at: now })
      .execute();
    const assigned = (step: string) =>
      placeHost(api.engine, api.database, "h-1", {
        state: "assigned",
        instanceId: id,
        instanceState: { step },
      } as never);
    await assigned("waitingForNetworkConfig");
    expect((await service.get(id)).status).toMatchObject({
      tenantState: "Provisioning",
      hostState: "assigned/waitingForNetworkConfig",
    });
    await assigned("ready");
    await reportNetwork("d-1", 2, 1);
    expect((await service.get(id)).status).toEqual({
      tenantState: "Configuring",
      hostState: "assigned/ready",
      configsSynced: { aggregate: "pending", subsystems: { network: "pending" } },
      healthAlerts: [],
    });
    await reportNetwork("d-2", 2, 1);
    expect((await service.get(id)).status).toMatchObject({
      tenantState: "Ready",
      configsSynced: { aggregate: "synced", subsystems: { network: "synced" } },
    });
    await service.updateConfig(id, config);
    expect((await service.get(id)).status.tenantState).toBe("Configuring");
    await assigned("switchToAdminNetwork");
    expect((await service.get(id)).status.tenantState).toBe("Terminating");
  });
});

describe("REST", () => {
  it("allocates (201), reads, lists, reconfigures and releases (202)", async () => {
    const created = await api.rest.inject({
      method: "POST",
      url: "/api/v1/instances",
      payload: { tenantOrg: "acme", machineId: "h-1", config },
    });
    expect(created.statusCode).toBe(201);
    const instance = created.json<InstanceView>();
    expect(Object.keys(instance).sort()).toEqual(
      [
        "config",
        "configVersion",
        "createdAt",
        "id",
        "instanceType",
        "machineId",
        "name",
        "releaseIssue",
        "releaseRequestedAt",
        "status",
        "tenantOrg",
        "terminatedAt",
      ].sort(),
    );
    expect(instance.status).toEqual({
      tenantState: "Provisioning",
      hostState: "ready",
      configsSynced: { aggregate: "pending", subsystems: { network: "pending" } },
      healthAlerts: [],
    });
    const got = await api.rest.inject({ method: "GET", url: `/api/v1/instances/${instance.id}` });
    expect(got.json()).toEqual(instance);
    const listed = await api.rest.inject({
      method: "GET",
      url: "/api/v1/instances?tenantOrg=acme&includeTerminated=false",
    });
    expect(listed.json<{ instances: InstanceView[] }>().instances.map((i) => i.id)).toEqual([instance.id]);
    const updated = await api.rest.inject({
      method: "PUT",
      url: `/api/v1/instances/${instance.id}/config`,
      payload: { config: { network: { interfaces: [] } }, ifVersionMatch: 1 },
    });
    expect(updated.json()).toMatchObject({ configVersion: 2 });
    const mismatch = await api.rest.inject({
      method: "PUT",
      url: `/api/v1/instances/${instance.id}/config`,
      payload: { config, ifVersionMatch: 1 },
    });
    expect(mismatch.statusCode).toBe(412);
    expect(mismatch.json()).toMatchObject({
      error: { code: "config_version_mismatch", status: "FAILED_PRECONDITION" },
    });
    const released = await api.rest.inject({
      method: "POST",
      url: `/api/v1/instances/${instance.id}/release`,
      payload: { issue: { category: "performance", summary: "slow" } },
    });
    expect(released.statusCode).toBe(202);
    expect(released.json()).toMatchObject({ releaseIssue: { category: "performance", summary: "slow" } });
    const bare = await api.rest.inject({ method: "POST", url: `/api/v1/instances/${instance.id}/release` });
    expect(bare.statusCode).toBe(202);
  });

  it("answers errors in the shared format", async () => {
    const missing = await api.rest.inject({ method: "GET", url: "/api/v1/instances/i-nope" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: { code: "instance_not_found", status: "NOT_FOUND" } });
    const bad = await api.rest.inject({
      method: "POST",
      url: "/api/v1/instances",
      payload: {
        tenantOrg: "acme",
        machineId: "h-1",
        config: { network: { interfaces: [{ function: "pf0", network: "" }] } },
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain("config.network.interfaces[0].network");
    const unknownField = await api.rest.inject({
      method: "POST",
      url: "/api/v1/instances",
      payload: { tenantOrg: "a", x: 1 },
    });
    expect(unknownField.statusCode).toBe(400);
    blockers.set("h-1", [{ id: "Maintenance", message: "rack work", classifications: [] }]);
    const blocked = await api.rest.inject({
      method: "POST",
      url: "/api/v1/instances",
      payload: { tenantOrg: "a", machineId: "h-1" },
    });
    expect(blocked.statusCode).toBe(412);
    expect(blocked.json().error.message).toContain("Maintenance: rack work");
  });
});

describe("gRPC", () => {
  it("serves the same operations", async () => {
    const created = await call<Instance__Output>((cb) =>
      client.AllocateInstance({ tenantOrg: "acme", machineId: "h-1", config, name: "web" }, cb),
    );
    expect(created).toMatchObject({
      name: "web",
      machineId: "h-1",
      configVersion: "1",
      config: { network: { interfaces: [{ function: "pf0", network: "blue" }] } },
      status: {
        tenantState: "Provisioning",
        hostState: "ready",
        configsSynced: { aggregate: "pending", subsystems: { network: "pending" } },
      },
      releaseIssue: null,
    });
    expect(created.instanceType).toBeUndefined();
    expect(created.createdAt?.seconds).toBe(String(now.getTime() / 1000));
    const updated = await call<Instance__Output>((cb) =>
      client.UpdateInstanceConfig(
        { id: created.id, config: { network: { interfaces: [] } }, ifVersionMatch: 1 },
        cb,
      ),
    );
    expect(updated.configVersion).toBe("2");
    const stale = (await call((cb) =>
      client.UpdateInstanceConfig({ id: created.id, config: {}, ifVersionMatch: 1 }, cb),
    ).catch((e) => e)) as ServiceError;
    expect(stale.code).toBe(9);
    expect((stale.metadata as Metadata).get("racksmith-error-code")).toEqual(["config_version_mismatch"]);
    const released = await call<Instance__Output>((cb) =>
      client.ReleaseInstance({ id: created.id, issue: { category: "other", summary: "done" } }, cb),
    );
    expect(released.releaseRequestedAt?.seconds).toBe(String(now.getTime() / 1000));
    expect(released.releaseIssue).toEqual({ category: "other", summary: "done" });
    expect(released.status?.tenantState).toBe("Terminating");
    const found = await call<{ instances: Instance__Output[] }>((cb) =>
      client.FindInstances({ machineId: "h-1" }, cb),
    );
    expect(found.instances.map((i) => i.id)).toEqual([created.id]);
    expect((await call<Instance__Output>((cb) => client.GetInstance({ id: created.id }, cb))).id).toBe(
      created.id,
    );
    const both = (await call((cb) =>
      client.AllocateInstance({ tenantOrg: "acme", machineId: "h-1", instanceType: "x" }, cb),
    ).catch((e) => e)) as ServiceError;
    expect(both.code).toBe(3);
    const missing = (await call((cb) => client.GetInstance({ id: "" }, cb)).catch((e) => e)) as ServiceError;
    expect(missing).toMatchObject({ code: 3, details: "id is required" });
  });
});
