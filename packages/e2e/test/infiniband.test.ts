import { runCliJson } from "@racksmith/cli";
import type { InstanceView } from "@racksmith/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2E_DATABASES } from "./support/databases.js";
import { restJson } from "./support/rest.js";
import { readyHosts, simulatedSite } from "./support/simulatedSite.js";
import { waitFor } from "./support/waitFor.js";

const HOSTS = 6;
const HCA = "MT2910 Family [ConnectX-7]";

interface Partition {
  id: string;
  name: string;
  tenant: string;
  pkey: string;
  state: string;
}

interface HealthView {
  alerts: Array<{ id: string; message: string; classifications: string[] }>;
}

// Acceptance (issue 8): InfiniBand tenant isolation through a simulated UFM on a simulated 6-host site.
describe("InfiniBand tenant isolation through UFM", () => {
  let site: Awaited<ReturnType<typeof simulatedSite>>;
  const cli = <T>(...argv: string[]) => runCliJson<T>([...argv, "--server", site.url, "--token", site.token]);
  const ufm = () => {
    if (!site.ufm) throw new Error("the site runs no UFM simulator");
    return site.ufm;
  };
  const rest = <T>(method: string, path: string, body?: unknown) => restJson<T>(site, method, path, body);
  /** The host's first IB port GUID as its agent reported it. */
  const guidOf = async (hostId: string): Promise<string> => {
    const row = await site.service.database.db
      .selectFrom("machine_reports")
      .select("inventory")
      .where("machine_id", "=", hostId)
      .executeTakeFirstOrThrow();
    const guid = row.inventory?.ibPorts[0]?.guid;
    if (!guid) throw new Error(`host ${hostId} reported no IB port`);
    return guid;
  };
  const hostState = async (hostId: string) =>
    (await site.hostStates()).find((state) => state.objectId === hostId)?.stateLabel ?? "";
  const alertsOf = async (hostId: string) => (await cli<HealthView>("health", "show", hostId)).alerts;

  let hosts: string[] = [];
  let guids: string[] = [];
  let partition: Partition;
  let instances: InstanceView[] = [];

  beforeAll(async () => {
    site = await simulatedSite(E2E_DATABASES[0] ?? { kind: "pglite" }, {
      hosts: HOSTS,
      seed: 8,
      ufm: { monitorIntervalMs: 1_000, pkeyRanges: [{ start: "0x100", end: "0x200" }] },
      sections: { engine: { iterationIntervalMs: 1_000 } },
    });
    hosts = (await readyHosts(site, HOSTS)).slice(0, 4);
    guids = await Promise.all(hosts.map(guidOf));
  }, 540_000);
  afterAll(async () => {
    await site?.close();
  });

  it("binds the GUIDs of 4 instances to their partition's pkey and reports infiniband synced", async () => {
    const created = await cli<Partition>("ib-partition", "create", "--name", "training", "--tenant", "acme");
    expect(created).toMatchObject({ name: "training", tenant: "acme", pkey: "0x100" });
    partition = await waitFor(
      async () => {
        const shown = await cli<Partition>("ib-partition", "show", created.id);
        return shown.state === "Ready" && shown;
      },
      { what: "the partition Ready", timeoutMs: 60_000 },
    );
    expect(Object.keys(partition).slice(0, 5)).toEqual(["id", "name", "tenant", "pkey", "state"]);
    const listed = await cli<Partition[]>("ib-partition", "list", "--tenant", "acme");
    expect(listed.map((p) => p.id)).toEqual([partition.id]);

    instances = await Promise.all(
      hosts.map(async (machineId) => {
        const answer = await rest<InstanceView>("POST", "/api/v1/instances", {
          machineId,
          tenantOrg: "acme",
          config: {
            network: { interfaces: [{ function: "pf0", network: "tenant-a" }] },
            infiniband: { interfaces: [{ device: HCA, deviceInstance: 0, partitionId: partition.id }] },
          },
        });
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
        return answer.body;
      }),
    );
    const ready = await waitFor(
      async () => {
        const views = await Promise.all(instances.map((i) => cli<InstanceView>("instance", "show", i.id)));
        return views.every((v) => v.status.tenantState === "Ready") && views;
      },
      { what: "the instances Ready", timeoutMs: 270_000, everyMs: 500 },
    );
    for (const view of ready)
      expect(view.status.configsSynced).toEqual({
        aggregate: "synced",
        subsystems: { network: "synced", infiniband: "synced" },
      });
    expect(ufm().guidsIn(partition.pkey)).toEqual([...guids].sort());

    // A partition in use cannot be deleted; another tenant's partition cannot be configured.
    const refused = await rest<{ error: { code: string } }>(
      "DELETE",
      `/api/v1/ib-partitions/${partition.id}`,
    );
    expect(refused.body.error.code).toBe("ib_partition_in_use");
  }, 360_000);

  it("unbinds a GUID bound by hand to a tenant pkey, and never touches a pkey outside the ranges", async () => {
    const intruder = guids[0] as string;
    ufm().bindByHand("0x1ff", [intruder]);
    ufm().bindByHand("0x300", [intruder]);
    await waitFor(async () => !ufm().pkeysOf(intruder).includes(0x1ff), {
      what: "the hand-bound GUID out of 0x1ff",
      timeoutMs: 30_000,
      everyMs: 100,
    });
    // Let a few more runs pass: the foreign pkey stays, the tenant one too.
    const runs = ufm().requests.length;
    await waitFor(async () => ufm().requests.length > runs + 20, {
      what: "more monitor runs",
      timeoutMs: 30_000,
    });
    expect(ufm().pkeysOf(intruder)).toEqual([Number(partition.pkey), 0x300, 0x7fff]);
  }, 90_000);

  it("shows insecure SM settings in the fabric's health and the metrics", async () => {
    ufm().setSecurity({ mKey: "0", smKey: "1", defaultMembership: "full" });
    const health = await waitFor(
      async () => {
        const answer = await rest<{ health: { securityFindings: Array<{ setting: string }> } | null }>(
          "GET",
          "/api/v1/ib-fabric/health",
        );
        const findings = answer.body.health?.securityFindings ?? [];
        return (findings.length >= 3 && answer.body.health) || undefined;
      },
      { what: "the security findings", timeoutMs: 30_000 },
    );
    expect(health.securityFindings.map((f) => f.setting).sort()).toEqual([
      "default_membership",
      "m_key",
      "sm_key",
    ]);
    // The monitor stores the fabric's health first and records its metrics at the end of the same run.
    const insecure = 'racksmith_ib_monitor_insecure_fabric_configuration_count{fabric="ufm"} 1';
    const metrics = await waitFor(
      async () => {
        const text = await (await fetch(`${site.url}/metrics`)).text();
        return text.includes(insecure) && text;
      },
      { what: "the insecure-fabric metric", timeoutMs: 30_000 },
    );
    expect(metrics).toContain(insecure);
    expect(metrics).toMatch(
      /racksmith_ib_monitor_ufm_changes_applied\{[^}]*operation="bind_guid_to_pkey"[^}]*status="ok"[^}]*\} [1-9]/,
    );
    ufm().setSecurity({ mKey: "0x10", smKey: "0x20", defaultMembership: "limited" });
    const browsed = await cli<{ status: number; body: Record<string, unknown> }>(
      "ufm",
      "browse",
      "/ufmRest/resources/pkeys",
    );
    expect(Object.keys(browsed.body)).toContain(partition.pkey);
    const outside = await rest<{ error: { code: string } }>("GET", "/api/v1/ufm/browse?path=/app/smconf");
    expect(outside.status).toBe(400);
  }, 90_000);

  it("unbinds the GUIDs of released instances before their hosts reach cleanup", async () => {
    const released = instances.slice(0, 2);
    const releasedHosts = hosts.slice(0, 2);
    await Promise.all(released.map((i) => cli("instance", "release", i.id)));
    const pkey = Number(partition.pkey);
    await waitFor(
      async () => {
        for (const [index, hostId] of releasedHosts.entries()) {
          const label = await hostState(hostId);
          const stillBound = ufm()
            .pkeysOf(guids[index] as string)
            .includes(pkey);
          // Once cleanup starts, the GUIDs must already be out of the tenant pkey.
          if (label.startsWith("waitingForCleanup") || label === "ready")
            expect(stillBound, hostId).toBe(false);
        }
        const labels = await Promise.all(releasedHosts.map(hostState));
        return labels.every((label) => label === "ready");
      },
      { what: "the released hosts back in Ready", timeoutMs: 270_000, everyMs: 100 },
    );
    expect(ufm().guidsIn(partition.pkey)).toEqual([guids[2], guids[3]].sort());
  }, 360_000);

  it("lets termination proceed while UFM is down, blocks the host with IbCleanupPending, and clears it once UFM is back", async () => {
    const [instance] = instances.slice(2, 3);
    const hostId = hosts[2] as string;
    const guid = guids[2] as string;
    await ufm().setDown(true);
    await waitFor(
      async () =>
        (await rest<{ health: { reachable: boolean } | null }>("GET", "/api/v1/ib-fabric/health")).body.health
          ?.reachable === false,
      { what: "the monitor to see UFM down", timeoutMs: 30_000 },
    );
    await cli("instance", "release", instance?.id ?? "");
    const alerts = await waitFor(
      async () => {
        const found = await alertsOf(hostId);
        return found.some((a) => a.id === "IbCleanupPending") && found;
      },
      { what: "IbCleanupPending on the host", timeoutMs: 180_000, everyMs: 500 },
    );
    const pending = alerts.find((a) => a.id === "IbCleanupPending");
    expect(pending?.classifications).toContain("PreventAllocations");
    expect(pending?.message).toContain(guid);
    await waitFor(async () => (await hostState(hostId)) === "ready", {
      what: "the host through cleanup to Ready despite UFM being down",
      timeoutMs: 270_000,
      everyMs: 500,
    });
    const blocked = await rest<{ error: { code: string } }>("POST", "/api/v1/instances", {
      machineId: hostId,
      tenantOrg: "acme",
      config: { network: { interfaces: [{ function: "pf0", network: "tenant-a" }] } },
    });
    expect(blocked.body.error.code).toBe("allocation_blocked");
    expect(ufm().pkeysOf(guid)).toContain(Number(partition.pkey));

    await ufm().clearFaults();
    await waitFor(
      async () =>
        !(await alertsOf(hostId)).some((a) => a.id === "IbCleanupPending") &&
        !ufm().pkeysOf(guid).includes(Number(partition.pkey)),
      { what: "the alert cleared and the GUID unbound", timeoutMs: 60_000, everyMs: 250 },
    );
  }, 540_000);

  it("deletes the partition once no instance uses it: its GUIDs unbound, its pkey freed", async () => {
    await cli("instance", "release", instances[3]?.id ?? "");
    await waitFor(
      async () =>
        (await rest<{ error?: { code: string } }>("DELETE", `/api/v1/ib-partitions/${partition.id}`))
          .status === 202,
      { what: "the partition deletable", timeoutMs: 270_000, everyMs: 500 },
    );
    await waitFor(async () => (await cli<Partition[]>("ib-partition", "list")).length === 0, {
      what: "the partition gone",
      timeoutMs: 60_000,
    });
    expect(ufm().hasPartition(partition.pkey)).toBe(false);
    const again = await cli<Partition>("ib-partition", "create", "--name", "again", "--tenant", "acme");
    expect(again.pkey).toBe(partition.pkey);
  }, 360_000);
});
