import { runCliInMemory } from "@racksmith/cli";
import type { InstanceView } from "@racksmith/server";
import { call, grpcClients } from "@racksmith/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2E_DATABASES } from "./support/databases.js";
import { restJson } from "./support/rest.js";
import { readyHosts, simulatedSite } from "./support/simulatedSite.js";

const HOSTS = 2;

type Client = ReturnType<ReturnType<typeof grpcClients>["client"]>;

interface ApiError {
  error: { code: string; message: string };
}

/** One unary call of a generated-at-runtime client, by method name. */
function invoke<T>(client: Client, method: string, request: object): Promise<T> {
  const methods = client as unknown as Record<string, (request: object, callback: unknown) => void>;
  return call<T>((callback) => methods[method]?.call(client, request, callback));
}

/** What a gRPC call failed with: its status code and racksmith's error code. */
async function grpcRefusal(promise: Promise<unknown>): Promise<{ code: number; errorCode: string }> {
  const error = (await promise.then(
    () => {
      throw new Error("the call succeeded");
    },
    (e: unknown) => e,
  )) as { code: number; metadata: { get(key: string): unknown[] } };
  return { code: error.code, errorCode: String(error.metadata.get("racksmith-error-code")[0]) };
}

const NOT_FOUND = 5;

// Acceptance (issue 17, 2): tenant A cannot see, allocate on behalf of, release or change tenant B's instances
// and partitions (404), through REST, gRPC and the CLI; a list shows a tenant its own org's only.
describe.each(E2E_DATABASES)("tenant isolation ($kind)", (database) => {
  let site: Awaited<ReturnType<typeof simulatedSite>>;
  const tokens = { a: "", b: "" };
  let clients: ReturnType<typeof grpcClients>;
  let hosts: string[] = [];
  let instanceOfB: InstanceView;
  let ibPartitionOfB: { id: string };
  let nvlinkPartitionOfB: { id: string };

  const as = (tenant: "a" | "b" | "admin") => ({
    url: site.url,
    token: tenant === "admin" ? site.token : tokens[tenant],
  });
  const rest = <T>(tenant: "a" | "b" | "admin", method: string, path: string, body?: unknown) =>
    restJson<T>(as(tenant), method, path, body);
  const grpc = (tenant: "a" | "b", serviceName: string, protoFile: string) =>
    clients.client(serviceName, protoFile, { authorization: `Bearer ${tokens[tenant]}` });
  const cli = (tenant: "a" | "b", ...argv: string[]) =>
    runCliInMemory([...argv, "--server", site.url, "--token", tokens[tenant]]);

  beforeAll(async () => {
    site = await simulatedSite(database, {
      hosts: HOSTS,
      seed: 17,
      ufm: { monitorIntervalMs: 1_000, pkeyRanges: [{ start: "0x100", end: "0x200" }] },
      nmxm: { monitorIntervalMs: 1_000, operationTimeoutMs: 1_500, operationPollMs: 50 },
      sections: { engine: { iterationIntervalMs: 1_000 } },
    });
    clients = grpcClients(site.grpcAddress);
    for (const tenant of ["a", "b"] as const) {
      const issued = await rest<{ token: string }>("admin", "POST", "/api/v1/auth/tokens", {
        role: "tenant",
        tenant: `org-${tenant}`,
        subject: `tenant-${tenant}-user`,
      });
      expect(issued.status).toBe(201);
      tokens[tenant] = issued.body.token;
    }
    hosts = await readyHosts(site, HOSTS);

    // Tenant B's own objects, made with its own token.
    const allocated = await rest<InstanceView>("b", "POST", "/api/v1/instances", {
      machineId: hosts[0],
      tenantOrg: "org-b",
      config: { network: { interfaces: [{ function: "pf0", network: "tenant-b" }] } },
    });
    expect(allocated.status, JSON.stringify(allocated.body)).toBe(201);
    instanceOfB = allocated.body;
    const ib = await rest<{ id: string }>("b", "POST", "/api/v1/ib-partitions", {
      name: "b-ib",
      tenantOrg: "org-b",
    });
    expect(ib.status, JSON.stringify(ib.body)).toBe(201);
    ibPartitionOfB = ib.body;
    const nvlink = await rest<{ id: string }>("b", "POST", "/api/v1/nvlink-partitions", {
      name: "b-nvlink",
      tenantOrg: "org-b",
    });
    expect(nvlink.status, JSON.stringify(nvlink.body)).toBe(201);
    nvlinkPartitionOfB = nvlink.body;
  }, 540_000);
  afterAll(async () => {
    clients?.closeAll();
    await site?.close();
  });

  it("over REST: another org's objects answer 404 and lists hold only the caller's org", async () => {
    const instance = `/api/v1/instances/${instanceOfB.id}`;
    const refusals = [
      await rest<ApiError>("a", "GET", instance),
      await rest<ApiError>("a", "POST", `${instance}/release`, {}),
      await rest<ApiError>("a", "PUT", `${instance}/config`, { config: { network: { interfaces: [] } } }),
      await rest<ApiError>("a", "GET", `/api/v1/ib-partitions/${ibPartitionOfB.id}`),
      await rest<ApiError>("a", "DELETE", `/api/v1/ib-partitions/${ibPartitionOfB.id}`),
      await rest<ApiError>("a", "GET", `/api/v1/nvlink-partitions/${nvlinkPartitionOfB.id}`),
      await rest<ApiError>("a", "DELETE", `/api/v1/nvlink-partitions/${nvlinkPartitionOfB.id}`),
    ];
    expect(refusals.map((answer) => [answer.status, answer.body.error.code])).toEqual([
      [404, "instance_not_found"],
      [404, "instance_not_found"],
      [404, "instance_not_found"],
      [404, "ib_partition_not_found"],
      [404, "ib_partition_not_found"],
      [404, "nvlink_partition_not_found"],
      [404, "nvlink_partition_not_found"],
    ]);

    const onBehalf = [
      await rest<ApiError>("a", "POST", "/api/v1/instances", { machineId: hosts[1], tenantOrg: "org-b" }),
      await rest<ApiError>("a", "POST", "/api/v1/ib-partitions", { name: "x", tenantOrg: "org-b" }),
      await rest<ApiError>("a", "POST", "/api/v1/nvlink-partitions", { name: "x", tenantOrg: "org-b" }),
    ];
    expect(onBehalf.map((answer) => [answer.status, answer.body.error.code])).toEqual([
      [404, "tenant_not_found"],
      [404, "tenant_not_found"],
      [404, "tenant_not_found"],
    ]);

    for (const path of ["/api/v1/instances", "/api/v1/ib-partitions", "/api/v1/nvlink-partitions"]) {
      const own = await rest<Record<string, Array<{ id: string }>>>("a", "GET", path);
      expect(Object.values(own.body).flat(), path).toEqual([]);
      const asked = await rest<Record<string, Array<{ id: string }>>>("a", "GET", `${path}?tenantOrg=org-b`);
      expect(Object.values(asked.body).flat(), path).toEqual([]);
      const theirs = await rest<Record<string, Array<{ id: string }>>>("b", "GET", path);
      expect(Object.values(theirs.body).flat().length, path).toBe(1);
    }
    // Tenant B still has everything: nothing A tried took effect.
    const stillThere = await rest<InstanceView>("b", "GET", instance);
    expect(stillThere.body.releaseRequestedAt ?? null).toBeNull();
    expect((await rest("b", "GET", `/api/v1/ib-partitions/${ibPartitionOfB.id}`)).status).toBe(200);
    expect((await rest("b", "GET", `/api/v1/nvlink-partitions/${nvlinkPartitionOfB.id}`)).status).toBe(200);
  });

  it("over gRPC: the same NOT_FOUND answers, and lists of the caller's org only", async () => {
    const instances = grpc("a", "racksmith.v1.Instances", "racksmith/v1/instances.proto");
    const ib = grpc("a", "racksmith.v1.InfiniBand", "racksmith/v1/infiniband.proto");
    const nvlink = grpc("a", "racksmith.v1.NvLink", "racksmith/v1/nvlink.proto");
    const refusals = [
      await grpcRefusal(invoke(instances, "GetInstance", { id: instanceOfB.id })),
      await grpcRefusal(invoke(instances, "ReleaseInstance", { id: instanceOfB.id })),
      await grpcRefusal(
        invoke(instances, "UpdateInstanceConfig", {
          id: instanceOfB.id,
          config: { network: { interfaces: [] } },
        }),
      ),
      await grpcRefusal(invoke(instances, "AllocateInstance", { machineId: hosts[1], tenantOrg: "org-b" })),
      await grpcRefusal(invoke(ib, "GetIbPartition", { id: ibPartitionOfB.id })),
      await grpcRefusal(invoke(ib, "DeleteIbPartition", { id: ibPartitionOfB.id })),
      await grpcRefusal(invoke(ib, "CreateIbPartition", { name: "x", tenantOrg: "org-b" })),
      await grpcRefusal(invoke(nvlink, "GetNvLinkPartition", { id: nvlinkPartitionOfB.id })),
      await grpcRefusal(invoke(nvlink, "DeleteNvLinkPartition", { id: nvlinkPartitionOfB.id })),
      await grpcRefusal(invoke(nvlink, "CreateNvLinkPartition", { name: "x", tenantOrg: "org-b" })),
    ];
    expect(refusals).toEqual([
      { code: NOT_FOUND, errorCode: "instance_not_found" },
      { code: NOT_FOUND, errorCode: "instance_not_found" },
      { code: NOT_FOUND, errorCode: "instance_not_found" },
      { code: NOT_FOUND, errorCode: "tenant_not_found" },
      { code: NOT_FOUND, errorCode: "ib_partition_not_found" },
      { code: NOT_FOUND, errorCode: "ib_partition_not_found" },
      { code: NOT_FOUND, errorCode: "tenant_not_found" },
      { code: NOT_FOUND, errorCode: "nvlink_partition_not_found" },
      { code: NOT_FOUND, errorCode: "nvlink_partition_not_found" },
      { code: NOT_FOUND, errorCode: "tenant_not_found" },
    ]);
    expect(await invoke(instances, "FindInstances", { tenantOrg: "org-b" })).toMatchObject({ instances: [] });
    expect(await invoke(ib, "FindIbPartitions", {})).toMatchObject({ partitions: [] });
    expect(await invoke(nvlink, "ListNvLinkPartitions", {})).toMatchObject({ partitions: [] });
    const ofB = grpc("b", "racksmith.v1.Instances", "racksmith/v1/instances.proto");
    const found = await invoke<{ instances: Array<{ id: string }> }>(ofB, "FindInstances", {});
    expect(found.instances.map((instance) => instance.id)).toEqual([instanceOfB.id]);
  });

  it("through the CLI: another org's instance is not found, and a tenant's list is its own", async () => {
    const shown = await cli("a", "instance", "show", instanceOfB.id);
    expect(shown.code).toBe(1);
    expect(shown.stderr).toContain("instance_not_found");
    const released = await cli("a", "instance", "release", instanceOfB.id);
    expect(released.code).toBe(1);
    expect(released.stderr).toContain("instance_not_found");
    const ibShown = await cli("a", "ib-partition", "show", ibPartitionOfB.id);
    expect(ibShown.stderr).toContain("ib_partition_not_found");
    const nvlinkDeleted = await cli("a", "nvlink-partition", "delete", nvlinkPartitionOfB.id);
    expect(nvlinkDeleted.stderr).toContain("nvlink_partition_not_found");
    const listed = await cli("a", "instance", "list", "--json");
    expect(JSON.parse(listed.stdout)).toEqual([]);
    const own = await cli("b", "instance", "list", "--json");
    expect((JSON.parse(own.stdout) as Array<{ id: string }>).map((instance) => instance.id)).toEqual([
      instanceOfB.id,
    ]);
  });
});
