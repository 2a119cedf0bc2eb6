import { silentLogger } from "@racksmith/core";
import type { HealthReport } from "@racksmith/core/health";
import type { NvLinkFabric, NvLinkGpu, NvLinkOperation, NvLinkPartition } from "@racksmith/core/nvlink";
import { NvLinkFabricNotFoundError, NvLinkFabricUnavailableError } from "@racksmith/core/nvlink";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertHost } from "../../../../lifecycle/agents/__fixtures__/site.js";
import type { InstanceFabric } from "../../../../lifecycle/fabrics/index.js";
import type { InstanceConfig } from "../../../../lifecycle/tables.js";
import { openTestDatabase, type TestDatabase } from "../../../../testing/testDatabase.js";
import { nvlinkInstanceFabric } from "../nvlinkInstanceFabric.js";
import { LogicalPartitionService } from "../partitions/index.js";
import { NvLinkMonitor } from "./monitor.js";

const DOMAIN = "domain-1";

/** An in-memory NMX-M: operations apply at once (or fail, or never finish) when started. */
class FakeNmxm implements NvLinkFabric {
  readonly name = "fake";
  readonly monitor = { monitorIntervalMs: 60_000, operationTimeoutMs: 50, operationPollMs: 5 };
  readonly gpus: NvLinkGpu[] = [];
  readonly partitions = new Map<string, { number: number; name: string; gpus: string[] }>();
  readonly operations = new Map<string, NvLinkOperation>();
  failCreates = false;
  hang = false;
  down = false;
  private next = 1;

  constructor(trays: number) {
    for (let tray = 0; tray < trays; tray++) {
      for (let d = 1; d <= 4; d++) {
        this.gpus.push({
          id: `g${tray}-${d}`,
          domain: DOMAIN,
          location: { chassisSerial: "R1", slot: tray + 1, tray },
          deviceIndex: d,
          deviceUid: String(1000 + tray * 4 + d),
          partitionNumber: null,
          health: "healthy",
        });
      }
    }
    this.partitions.set("default", { number: 32766, name: "default", gpus: this.gpus.map((g) => g.id) });
  }

  private view(id: string): NvLinkPartition {
    const p = this.partitions.get(id);
    if (!p) throw new NvLinkFabricNotFoundError(this.name, "partition", id);
    return {
      id,
      number: p.number,
      name: p.name,
      domain: DOMAIN,
      gpus: [...p.gpus],
      type: "id-based",
      health: "healthy",
      isDefault: p.number === 32766,
    };
  }
  private operation(apply: () => string | undefined, fails = false): Promise<{ operationId: string }> {
    const id = `op-${this.next++}`;
    if (this.hang) this.operations.set(id, { id, status: "in-progress" });
    else if (fails) this.operations.set(id, { id, status: "failed", error: "no room in the domain" });
    else {
      const partitionId = apply();
      this.operations.set(id, { id, status: "completed", ...(partitionId ? { partitionId } : {}) });
    }
    return Promise.resolve({ operationId: id });
  }
  partitionOf(gpu: string): number | null {
    for (const p of this.partitions.values()) if (p.gpus.includes(gpu)) return p.number;
    return null;
  }

  async listGpus() {
    if (this.down) throw new NvLinkFabricUnavailableError(this.name, "connection refused");
    return this.gpus.map((g) => ({ ...g, partitionNumber: this.partitionOf(g.id) }));
  }
  async getGpu(id: string) {
    const gpu = (await this.listGpus()).find((g) => g.id === id);
    if (!gpu) throw new NvLinkFabricNotFoundError(this.name, "GPU", id);
    return gpu;
  }
  async listComputeNodes() {
    return [];
  }
  async listPartitions() {
    return [...this.partitions.keys()].map((id) => this.view(id));
  }
  async getPartition(id: string) {
    return this.view(id);
  }
  createPartition(request: { name: string; gpus: readonly string[] }) {
    return this.operation(() => {
      const id = `p${this.next}`;
      this.partitions.set(id, { number: this.next, name: request.name, gpus: [...request.gpus] });
      return id;
    }, this.failCreates);
  }
  updatePartition(id: string, request: { gpus: readonly string[] }) {
    return this.operation(() => {
      const p = this.partitions.get(id);
      if (p) p.gpus = [...request.gpus];
      return undefined;
    });
  }
  deletePartition(id: string) {
    return this.operation(() => {
      this.partitions.delete(id);
      return undefined;
    });
  }
  async getOperation(id: string) {
    const op = this.operations.get(id);
    if (!op) throw new NvLinkFabricNotFoundError(this.name, "operation", id);
    return op;
  }
  async cancelOperation(id: string) {
    return { operationId: id };
  }
  async waitForOperation(id: string) {
    return this.getOperation(id);
  }
  async close() {}
}

const hostGpus = (tray: number) =>
  Array.from({ length: 4 }, (_, i) => ({
    model: "GB200",
    serial: `S${tray}-${i}`,
    pciAddress: "",
    platform: { chassisSerial: "R1", slot: tray + 1, tray },
  }));

describe("NvLinkMonitor against an in-memory NMX-M", () => {
  let test: TestDatabase;
  let fabric: FakeNmxm;
  let monitor: NvLinkMonitor;
  let instanceFabric: InstanceFabric;
  let partitions: LogicalPartitionService;

  beforeAll(async () => {
    test = await openTestDatabase("nvlink_monitor");
    const { database } = test;
    fabric = new FakeNmxm(3);
    for (const tray of [0, 1, 2]) {
      await insertHost(database, { id: `h${tray}` });
      await database.db
        .insertInto("machine_reports")
        .values({
          machine_id: `h${tray}`,
          inventory: JSON.stringify({
            serial: "",
            vendor: "",
            model: "",
            cpus: [],
            memoryBytes: 0,
            disks: [],
            nics: [],
            gpus: hostGpus(tray),
            ibPorts: [],
          }),
          updated_at: new Date(),
        })
        .execute();
    }
    const recordReport = async (hostId: string, report: HealthReport) => {
      const values = {
        machine_id: hostId,
        source: report.source,
        report: JSON.stringify(report),
        updated_at: new Date(),
      };
      await database.db
        .insertInto("health_reports")
        .values(values)
        .onConflict((oc) => oc.columns(["machine_id", "source"]).doUpdateSet({ report: values.report }))
        .execute();
    };
    monitor = new NvLinkMonitor({
      recordReport,
      database,
      fabric,
      logger: silentLogger,
      registry: new Registry(),
      processorId: "test",
    });
    instanceFabric = nvlinkInstanceFabric({
      database,
      fabric,
      logger: silentLogger,
      wake: () => undefined,
      reachable: () => monitor.reachable(),
      recordReport,
    });
    partitions = new LogicalPartitionService({ database });
  });
  afterAll(async () => {
    await test?.close();
  });

  const allocate = async (id: string, hostId: string, lp: string) => {
    const config: InstanceConfig = {
      network: { interfaces: [] },
      nvlink: { gpus: [0, 1, 2, 3].map((deviceInstance) => ({ deviceInstance, logicalPartitionId: lp })) },
    };
    const now = new Date();
    await test.database.db
      .insertInto("instances")
      .values({
        id,
        name: id,
        machine_id: hostId,
        tenant_org: "acme",
        config: JSON.stringify(config),
        created_at: now,
        updated_at: now,
      })
      .execute();
    return { hostId, instanceId: id, tenantOrg: "acme", config, configVersion: 1 };
  };
  const settle = async () => {
    for (let pass = 0; pass < 6; pass++) {
      const result = await monitor.runOnce({ lock: false });
      if (result.operations === 0 && result.pending === 0) return pass;
    }
    throw new Error("the monitor did not settle");
  };

  it("moves an instance's GPUs from the default partition into its logical partition's, one step per pass", async () => {
    const lp = await partitions.create({ name: "training", tenantOrg: "acme" });
    const target = await allocate("i0", "h0", lp.id);
    await instanceFabric.checkConfig(target, "config.nvlink");
    expect(await instanceFabric.syncProblems(target)).toEqual([
      "waiting for the NVLink monitor to observe the host's GPUs",
    ]);
    // Pass 1 takes the GPUs out of the default partition, pass 2 creates the tenant's partition.
    expect(await monitor.runOnce({ lock: false })).toMatchObject({ ran: true, operations: 1 });
    expect(fabric.partitionOf("g0-1")).toBeNull();
    expect(await monitor.runOnce({ lock: false })).toMatchObject({ operations: 1, failures: 0 });
    await settle();
    const shown = await partitions.get(lp.id);
    expect(shown.physicalPartitions).toMatchObject([
      { domain: DOMAIN, gpus: ["g0-1", "g0-2", "g0-3", "g0-4"] },
    ]);
    expect(await instanceFabric.syncProblems(target)).toEqual([]);
    await expect(partitions.delete(lp.id)).rejects.toMatchObject({ code: "nvlink_partition_in_use" });
  });

  it("takes the work lock: after an idle pass, nobody runs again before the interval", async () => {
    expect(await monitor.runOnce()).toMatchObject({ ran: true, operations: 0 });
    expect(await monitor.runOnce()).toMatchObject({ ran: false });
  });

  it("refuses a config naming another tenant's or an unknown partition, naming the field", async () => {
    const other = await partitions.create({ tenantOrg: "globex" });
    const target = {
      hostId: "h2",
      instanceId: "x",
      tenantOrg: "acme",
      configVersion: 1,
      config: {
        network: { interfaces: [] },
        nvlink: { gpus: [{ deviceInstance: 0, logicalPartitionId: other.id }] },
      },
    };
    await expect(instanceFabric.checkConfig(target, "config.nvlink")).rejects.toThrow(
      /config\.nvlink\.gpus\[0\]\.logicalPartitionId: no NVLink logical partition/,
    );
    const tooMany = {
      ...target,
      config: { ...target.config, nvlink: { gpus: [{ deviceInstance: 4, logicalPartitionId: other.id }] } },
    };
    await expect(instanceFabric.checkConfig(tooMany, "config.nvlink")).rejects.toThrow(
      /deviceInstance: host h2 has 4 GPU/,
    );
  });

  it("removes a GPU an operator put in a partition Racksmith does not know", async () => {
    fabric.partitions
      .get("default")
      ?.gpus.splice(fabric.partitions.get("default")?.gpus.indexOf("g2-1") ?? 0, 1);
    fabric.partitions.set("intruder", { number: 12345, name: "by hand", gpus: ["g2-1"] });
    await settle();
    expect(fabric.partitionOf("g2-1")).toBeNull();
    expect(fabric.partitions.has("intruder")).toBe(false);
  });

  it("records a failed create as the reason and retries it on later passes", async () => {
    const lp = (await partitions.list({ tenantOrg: "acme" }))[0]?.id as string;
    const other = await partitions.create({ name: "eval", tenantOrg: "acme" });
    expect(lp).toBeDefined();
    fabric.failCreates = true;
    const target = await allocate("i1", "h1", other.id);
    await monitor.runOnce({ lock: false }); // out of the default partition
    expect(await monitor.runOnce({ lock: false })).toMatchObject({ operations: 1, failures: 1 });
    const problems = await instanceFabric.syncProblems(target);
    expect(problems.at(-1)).toMatch(/^operation op-\d+ failed: no room in the domain; retrying$/);
    expect((await partitions.get(other.id)).state).toBe("Error");
    expect(await monitor.runOnce({ lock: false })).toMatchObject({ operations: 1, failures: 1 });
    fabric.failCreates = false;
    await settle();
    expect(await instanceFabric.syncProblems(target)).toEqual([]);
    expect((await partitions.get(other.id)).state).toBe("Ready");
  });

  it("waits for a timed-out operation on later passes instead of starting another", async () => {
    fabric.hang = true;
    await test.database.db
      .updateTable("instances")
      .set({ release_requested_at: new Date() })
      .where("id", "=", "i1")
      .execute();
    expect(await monitor.runOnce({ lock: false })).toMatchObject({ operations: 1, pending: 1 });
    const reasons = await instanceFabric.releaseProblems({ hostId: "h1", instanceId: "i1" });
    expect(reasons.at(-1)).toMatch(/operation op-\d+ timed out: timed out after 50 ms .*; retrying/);
    expect(await monitor.runOnce({ lock: false })).toMatchObject({ operations: 0, pending: 1 });
    // NMX-M finishes the deletion on its own.
    const [id, op] = [...fabric.operations.entries()].at(-1) as [string, NvLinkOperation];
    const owned = [...fabric.partitions.entries()].find(([, p]) => p.gpus.includes("g1-1"));
    if (owned) fabric.partitions.delete(owned[0]);
    fabric.operations.set(id, { ...op, status: "completed" });
    fabric.hang = false;
    await settle();
    expect(await instanceFabric.releaseProblems({ hostId: "h1", instanceId: "i1" })).toEqual([]);
  });

  it("lets a release go on while NMX-M is unreachable, with NvLinkCleanupPending until the GPUs are out", async () => {
    const third = await partitions.create({ name: "third", tenantOrg: "acme" });
    await allocate("i2", "h2", third.id);
    await settle();
    fabric.down = true;
    expect(await monitor.runOnce({ lock: false })).toMatchObject({ ran: false });
    expect(monitor.reachable()).toBe(false);
    await test.database.db
      .updateTable("instances")
      .set({ release_requested_at: new Date() })
      .where("id", "=", "i2")
      .execute();
    expect(await instanceFabric.releaseProblems({ hostId: "h2", instanceId: "i2" })).toEqual([]);
    const alerts = async () => {
      const row = await test.database.db
        .selectFrom("health_reports")
        .select("report")
        .where("machine_id", "=", "h2")
        .executeTakeFirstOrThrow();
      return (row.report as HealthReport).alerts;
    };
    expect(await alerts()).toMatchObject([
      { id: "NvLinkCleanupPending", classifications: ["PreventAllocations"] },
    ]);
    fabric.down = false;
    await settle();
    expect(await alerts()).toEqual([]);
    await test.database.db
      .updateTable("instances")
      .set({ terminated_at: new Date() })
      .where("id", "=", "i2")
      .execute();
  });

  it("on release empties and deletes the physical partition; a deleted logical partition then goes", async () => {
    const lp = (await partitions.list({ tenantOrg: "acme" })).find((p) => p.name === "training");
    await test.database.db
      .updateTable("instances")
      .set({ release_requested_at: new Date() })
      .where("id", "=", "i0")
      .execute();
    await settle();
    expect(await instanceFabric.releaseProblems({ hostId: "h0", instanceId: "i0" })).toEqual([]);
    expect((await partitions.get(lp?.id as string)).physicalPartitions).toEqual([]);
    await test.database.db.updateTable("instances").set({ terminated_at: new Date() }).execute();
    expect((await partitions.delete(lp?.id as string)).state).toBe("Deleting");
    await monitor.runOnce({ lock: false });
    await expect(partitions.get(lp?.id as string)).rejects.toMatchObject({
      code: "nvlink_partition_not_found",
    });
  });
});
