import { runCliJson } from "@racksmith/cli";
import type { InstanceView } from "@racksmith/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2E_DATABASES } from "./support/databases.js";
import { restJson } from "./support/rest.js";
import { readyHosts, simulatedSite } from "./support/simulatedSite.js";
import { waitFor } from "./support/waitFor.js";

const HOSTS = 5;

interface Partition {
  id: string;
  name: string;
  tenant: string;
  state: string;
  physicalPartitions: Array<{ domain: string; nmxmId: string; number: number | null; gpus: string[] }>;
}

// Acceptance (issue 9): NVLink tenant isolation through a simulated NMX-M on a simulated GB200-style site
// (4 GPUs per host, one NVLink domain).
describe("NVLink tenant isolation through NMX-M", () => {
  let site: Awaited<ReturnType<typeof simulatedSite>>;
  const cli = <T>(...argv: string[]) => runCliJson<T>([...argv, "--server", site.url, "--token", site.token]);
  const nmxm = () => {
    if (!site.nmxm) throw new Error("the site runs no NMX-M simulator");
    return site.nmxm;
  };
  const rest = <T>(method: string, path: string, body?: unknown) => restJson<T>(site, method, path, body);
  /** The NMX-M ids of a host's GPUs: the simulator's GPUs at the location its agent reported. */
  const gpusOf = async (hostId: string): Promise<string[]> => {
    const row = await site.service.database.db
      .selectFrom("machine_reports")
      .select("inventory")
      .where("machine_id", "=", hostId)
      .executeTakeFirstOrThrow();
    const platform = row.inventory?.gpus[0]?.platform;
    if (!platform) throw new Error(`host ${hostId} reported no GPU platform info`);
    return nmxm()
      .gpus()
      .filter(
        (g) =>
          g.chassisSerial === platform.chassisSerial && g.slot === platform.slot && g.tray === platform.tray,
      )
      .map((g) => g.id)
      .sort();
  };
  const hostOutcome = async (hostId: string) => {
    const state = (await site.hostStates()).find((s) => s.objectId === hostId);
    return { label: state?.stateLabel ?? "", reason: state?.outcome?.reason ?? "" };
  };
  const tenantPartitions = () =>
    nmxm()
      .partitions()
      .filter((p) => !p.isDefault);
  const allocate = async (machineId: string, logicalPartitionId: string): Promise<InstanceView> => {
    const answer = await rest<InstanceView>("POST", "/api/v1/instances", {
      machineId,
      tenantOrg: "acme",
      config: {
        network: { interfaces: [{ function: "pf0", network: "tenant-a" }] },
        nvlink: { gpus: [0, 1, 2, 3].map((deviceInstance) => ({ deviceInstance, logicalPartitionId })) },
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body;
  };
  const instanceReady = (id: string, timeoutMs = 180_000) =>
    waitFor(
      async () => {
        const view = await cli<InstanceView>("instance", "show", id);
        return view.status.tenantState === "Ready" && view;
      },
      { what: `instance ${id} Ready`, timeoutMs, everyMs: 250 },
    );

  let hosts: string[] = [];
  let partition: Partition;
  let instances: InstanceView[] = [];

  beforeAll(async () => {
    site = await simulatedSite(E2E_DATABASES[0] ?? { kind: "pglite" }, {
      hosts: HOSTS,
      seed: 9,
      nmxm: { monitorIntervalMs: 1_000, operationTimeoutMs: 1_500, operationPollMs: 50 },
      sections: { engine: { iterationIntervalMs: 1_000 } },
    });
    hosts = await readyHosts(site, HOSTS);
  }, 540_000);
  afterAll(async () => {
    await site?.close();
  });

  it("puts exactly the GPUs of 3 instances into one physical partition and reports nvlink synced", async () => {
    const created = await cli<Partition>(
      "nvlink-partition",
      "create",
      "--name",
      "training",
      "--tenant",
      "acme",
    );
    expect(Object.keys(created).slice(0, 5)).toEqual(["id", "name", "tenant", "state", "physicalPartitions"]);
    expect(created).toMatchObject({
      name: "training",
      tenant: "acme",
      state: "Ready",
      physicalPartitions: [],
    });

    const members = hosts.slice(0, 3);
    instances = await Promise.all(members.map((machineId) => allocate(machineId, created.id)));
    const ready = await Promise.all(instances.map((i) => instanceReady(i.id, 270_000)));
    for (const view of ready) {
      expect(view.status.configsSynced).toEqual({
        aggregate: "synced",
        subsystems: { network: "synced", nvlink: "synced" },
      });
    }
    const expected = (await Promise.all(members.map(gpusOf))).flat().sort();
    expect(tenantPartitions().map((p) => [...p.gpus].sort())).toEqual([expected]);

    partition = await cli<Partition>("nvlink-partition", "show", created.id);
    expect(partition.physicalPartitions).toHaveLength(1);
    expect(partition.physicalPartitions[0]?.gpus).toEqual(expected);
    expect((await cli<Partition[]>("nvlink-partition", "list", "--tenant", "acme")).map((p) => p.id)).toEqual(
      [created.id],
    );

    const refused = await rest<{ error: { code: string; message: string } }>(
      "DELETE",
      `/api/v1/nvlink-partitions/${created.id}`,
    );
    expect(refused.status).toBe(412);
    expect(refused.body.error.code).toBe("nvlink_partition_in_use");
    const browsed = await cli<{ body: unknown[] }>("nmxm", "browse", "nmx/v1/partitions");
    expect(browsed.body.length).toBeGreaterThanOrEqual(2);
  }, 360_000);

  it("removes a GPU placed by hand in a partition Racksmith does not know", async () => {
    const [intruder] = await gpusOf(hosts[3] as string);
    nmxm().createPartitionByHand({ name: "by-hand", gpus: [intruder as string], number: 12345 });
    expect(nmxm().partitionOf(intruder as string)).toBe(12345);
    await waitFor(async () => nmxm().partitionOf(intruder as string) !== 12345, {
      what: "the hand-placed GPU out of partition 12345",
      timeoutMs: 45_000,
      everyMs: 100,
    });
    // The tenant's partition is left alone.
    expect(tenantPartitions().map((p) => p.number)).toEqual([partition.physicalPartitions[0]?.number]);
  }, 90_000);

  it("keeps a new instance waiting with the failed operation as reason, and retries until it succeeds", async () => {
    const second = await cli<Partition>("nvlink-partition", "create", "--name", "eval", "--tenant", "acme");
    nmxm().failAfterCreates(0);
    const host = hosts[3] as string;
    const instance = await allocate(host, second.id);
    // The host's reason and the partition's state are written by separate steps: wait for both.
    const outcome = await waitFor(
      async () => {
        const seen = await hostOutcome(host);
        if (!/nvlink: .*operation \S+ failed: .*; retrying/.test(seen.reason)) return false;
        const shown = await cli<Partition & { reason?: string }>("nvlink-partition", "show", second.id);
        return shown.state === "Error" && seen;
      },
      {
        what: "the failed create as the host's reason and the partition in Error",
        timeoutMs: 180_000,
        everyMs: 250,
      },
    );
    expect(outcome.label).toBe("assigned/waitingForNetworkConfig");
    const waiting = await cli<InstanceView>("instance", "show", instance.id);
    expect(waiting.status.tenantState).toBe("Provisioning");
    expect(waiting.status.configsSynced.subsystems.nvlink).toBe("pending");
    const failed = nmxm()
      .operations()
      .filter((o) => o.status === "failed").length;
    await waitFor(
      async () =>
        nmxm()
          .operations()
          .filter((o) => o.status === "failed").length > failed,
      {
        what: "a retried create",
        timeoutMs: 45_000,
      },
    );
    nmxm().failAfterCreates(undefined);
    const ready = await instanceReady(instance.id);
    expect(ready.status.configsSynced.subsystems.nvlink).toBe("synced");
    expect((await cli<Partition>("nvlink-partition", "show", second.id)).state).toBe("Ready");
  }, 360_000);

  it("keeps a reconfigured instance Configuring while an operation times out, and finishes once NMX-M catches up", async () => {
    const [second] = (await cli<Partition[]>("nvlink-partition", "list", "--tenant", "acme")).filter(
      (p) => p.name === "eval",
    );
    if (!second) throw new Error("no eval partition");
    const host = hosts[4] as string;
    const instance = await instanceReady((await allocate(host, second.id)).id);
    const [firstGpu] = await gpusOf(host);
    expect(tenantPartitions().some((p) => p.gpus.includes(firstGpu as string))).toBe(true);
    nmxm().slowOperations(3_000);
    const update = await rest<InstanceView>("PUT", `/api/v1/instances/${instance.id}/config`, {
      config: { network: { interfaces: [{ function: "pf0", network: "tenant-a" }] } },
    });
    expect(update.status, JSON.stringify(update.body)).toBe(200);
    const shown = await waitFor(
      async () => {
        const lp = await cli<Partition & { reason?: string }>("nvlink-partition", "show", second.id);
        return lp.state === "Error" && lp;
      },
      { what: "the timed-out update as the partition's reason", timeoutMs: 90_000, everyMs: 250 },
    );
    expect(shown.reason).toMatch(/operation \S+ timedout: timed out after 1500 ms/);
    const configuring = await cli<InstanceView>("instance", "show", instance.id);
    expect(configuring.status.tenantState).toBe("Configuring");
    expect(configuring.status.configsSynced.subsystems.nvlink).toBe("pending");
    nmxm().slowOperations(50);
    await instanceReady(instance.id, 60_000);
    for (const gpu of await gpusOf(host)) expect([null, 32766]).toContain(nmxm().partitionOf(gpu));
  }, 360_000);

  it("on release takes the GPUs out before cleanup, deletes the emptied partition, then the logical partition", async () => {
    const released = instances.slice(0, 3);
    await Promise.all(released.map((i) => cli("instance", "release", i.id)));
    const number = partition.physicalPartitions[0]?.number;
    const releasedGpus = await Promise.all(hosts.slice(0, 3).map(gpusOf));
    await waitFor(
      async () => {
        const labels = await Promise.all(hosts.slice(0, 3).map(async (h) => (await hostOutcome(h)).label));
        // A released host's GPUs must be out of every tenant partition before it reaches cleanup.
        for (const [index, label] of labels.entries()) {
          if (!label.startsWith("waitingForCleanup") && label !== "ready") continue;
          const held = (releasedGpus[index] ?? []).filter((gpu) => {
            const at = nmxm().partitionOf(gpu);
            return at !== null && at !== 32766;
          });
          expect(held, hosts[index]).toEqual([]);
        }
        return labels.every((l) => l === "ready");
      },
      { what: "the released hosts back in Ready", timeoutMs: 360_000, everyMs: 250 },
    );
    expect(tenantPartitions().some((p) => p.number === number)).toBe(false);
    const shown = await cli<Partition>("nvlink-partition", "show", partition.id);
    expect(shown.physicalPartitions).toEqual([]);
    await cli("nvlink-partition", "delete", partition.id);
    await waitFor(
      async () => (await rest("GET", `/api/v1/nvlink-partitions/${partition.id}`)).status === 404,
      { what: "the deleted logical partition gone", timeoutMs: 45_000 },
    );
    const metrics = await (await fetch(`${site.url}/metrics`)).text();
    expect(metrics).toMatch(
      /racksmith_nvlink_monitor_nmxm_changes_applied_total\{[^}]*operation="create"[^}]*status="failed"[^}]*\} [1-9]/,
    );
    expect(metrics).toMatch(
      /racksmith_nvlink_monitor_nmxm_changes_applied_total\{[^}]*operation="remove"[^}]*status="completed"[^}]*\} [1-9]/,
    );
  }, 540_000);
});
