import { silentLogger } from "@racksmith/core";
import { tryAcquireWorkLock } from "@racksmith/core/engine";
import type { HealthReport } from "@racksmith/core/health";
import type { InfiniBandFabric, InfiniBandPartition, InfiniBandPort } from "@racksmith/core/infiniband";
import { InfiniBandFabricNotFoundError, InfiniBandFabricUnavailableError } from "@racksmith/core/infiniband";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertHost, startRest } from "../../../../lifecycle/agents/__fixtures__/site.js";
import type { FeatureContext } from "../../../../service/feature.js";
import { openTestDatabase, type TestDatabase } from "../../../../testing/testDatabase.js";
import { infinibandFeature } from "../../feature.js";
import { IbMonitorMetrics } from "./metrics.js";
import { IB_MONITOR_LOCK, IbFabricMonitor } from "./monitor.js";
import { readFabricHealth, readHostObservation, writeHostObservation } from "./store.js";

const CX7 = "MT2910 Family [ConnectX-7]";
const A = "b83fd20000000010";
const B = "b83fd20000000011";
const QOS = { mtu: 4, rateLimit: 200, serviceLevel: 0 };

/** An in-memory fabric manager with UFM's rules (partitions exist while they have members). */
class FakeFabric implements InfiniBandFabric {
  readonly name = "fake";
  readonly settings = { pkeyRanges: [{ start: 0x100, end: 0x200 }], qos: QOS, monitorIntervalMs: 60_000 };
  readonly members = new Map<number, Set<string>>([[0x7fff, new Set([A, B])]]);
  readonly qos = new Map<number, typeof QOS>();
  readonly ports = new Map<string, InfiniBandPort["state"]>([
    [A, "active"],
    [B, "active"],
  ]);
  down = false;
  mKey = "0x10";

  private check() {
    if (this.down) return Promise.reject(new InfiniBandFabricUnavailableError("fake", "connection refused"));
    return Promise.resolve();
  }
  async versions() {
    await this.check();
    return { manager: "UFM", version: "6.19" };
  }
  async subnetManagerConfig() {
    await this.check();
    return {
      subnetPrefix: "0xfe80000000000000",
      mKey: this.mKey,
      smKey: "0x20",
      saKey: "0x30",
      mKeyPerPort: true,
    };
  }
  private partition(pkey: number): InfiniBandPartition {
    return {
      pkey,
      name: `p${pkey}`,
      ipOverIb: true,
      qos: this.qos.get(pkey) ?? QOS,
      members: [...(this.members.get(pkey) ?? [])].map((guid) => ({
        guid,
        membership: "full",
        index0: true,
      })),
      ...(pkey === 0x7fff ? { defaultMembership: "limited" as const } : {}),
    };
  }
  async listPartitions() {
    await this.check();
    return [...this.members.keys()].map((pkey) => this.partition(pkey));
  }
  async getPartition(pkey: number) {
    await this.check();
    if (!this.members.has(pkey)) throw new InfiniBandFabricNotFoundError("fake", "partition", String(pkey));
    return this.partition(pkey);
  }
  async bindGuids(pkey: number, guids: readonly string[]) {
    await this.check();
    this.members.set(pkey, new Set([...(this.members.get(pkey) ?? []), ...guids]));
  }
  async unbindGuids(pkey: number, guids: readonly string[]) {
    await this.check();
    const set = this.members.get(pkey);
    for (const guid of guids) set?.delete(guid);
    if (set && set.size === 0 && pkey !== 0x7fff) this.members.delete(pkey);
  }
  async updateQos(pkey: number, qos: typeof QOS) {
    await this.check();
    this.qos.set(pkey, qos);
  }
  async listPorts() {
    await this.check();
    return [...this.ports].map(([guid, state]) => ({
      guid,
      name: guid,
      state,
      logicalState: state,
      physicalState: "LinkUp",
      lid: 1,
    }));
  }
  async close() {}
  pkeysOf(guid: string) {
    return [...this.members].filter(([, set]) => set.has(guid)).map(([pkey]) => pkey);
  }
}

let testDb: TestDatabase;
let fabric: FakeFabric;
let monitor: IbFabricMonitor;
let registry: Registry;
const reports: Array<{ hostId: string; report: HealthReport }> = [];

beforeAll(async () => {
  testDb = await openTestDatabase("ibmonitor");
  const { db } = testDb.database;
  await insertHost(testDb.database, { id: "h-1" });
  const inventory = {
    serial: "S",
    vendor: "V",
    model: "M",
    cpus: [],
    memoryBytes: 0,
    disks: [],
    nics: [],
    gpus: [],
    ibPorts: [
      { device: CX7, port: 1, guid: A, rateGbps: 400 },
      { device: CX7, port: 2, guid: B, rateGbps: 400 },
    ],
  };
  await db
    .insertInto("machine_reports")
    .values({ machine_id: "h-1", inventory: JSON.stringify(inventory), updated_at: new Date() } as never)
    .execute();
  await db
    .insertInto("ib_partitions")
    .values({
      id: "p1",
      name: "p1",
      tenant_org: "acme",
      pkey: 0x101,
      requested_pkey: null,
      created_at: new Date(),
    })
    .execute();
  await db
    .insertInto("instances")
    .values({
      id: "i1",
      name: "i1",
      machine_id: "h-1",
      tenant_org: "acme",
      instance_type: null,
      config: JSON.stringify({
        network: { interfaces: [] },
        infiniband: {
          interfaces: [{ device: CX7, deviceInstance: 0, virtualFunction: null, partitionId: "p1" }],
        },
      }),
      created_at: new Date(),
      updated_at: new Date(),
    })
    .execute();
  fabric = new FakeFabric();
  registry = new Registry();
  monitor = new IbFabricMonitor({
    db,
    fabric,
    metrics: new IbMonitorMetrics(registry, fabric.name),
    logger: silentLogger,
    processorId: "me",
    allowInsecure: false,
    recordReport: async (hostId, report) => {
      reports.push({ hostId, report });
    },
    enqueueHost: async () => undefined,
  });
});
afterAll(async () => {
  await testDb?.close();
});

describe("the IB fabric monitor", () => {
  it("binds a live instance's GUID to its partition's pkey and stores the observation", async () => {
    const result = await monitor.runOnce();
    expect(result).toMatchObject({ ran: true, reachable: true, changes: 1, errors: 0 });
    expect(fabric.pkeysOf(A)).toEqual([0x7fff, 0x101]);
    const stored = await readHostObservation(testDb.database.db, "h-1");
    expect(stored?.observation?.interfaces.map((i) => [i.guid, i.pkeys])).toEqual([
      [A, [0x101, 0x7fff]],
      [B, [0x7fff]],
    ]);
    expect(await registry.getSingleMetricAsString("racksmith_ib_monitor_ufm_changes_applied")).toContain(
      'operation="bind_guid_to_pkey",status="ok"} 1',
    );
  });

  it("unbinds unexpected pkeys inside the ranges only, and corrects QoS drift", async () => {
    fabric.members.set(0x102, new Set([B]));
    fabric.members.set(0x300, new Set([B]));
    fabric.qos.set(0x101, { mtu: 2, rateLimit: 100, serviceLevel: 3 });
    const result = await monitor.runOnce();
    expect(result.changes).toBe(2);
    expect(fabric.pkeysOf(B)).toEqual([0x7fff, 0x300]);
    expect(fabric.qos.get(0x101)).toEqual(QOS);
    expect((await monitor.runOnce()).changes).toBe(0);
  });

  it("raises IbPortDown for a tracked port that is down, and clears it", async () => {
    fabric.ports.set(A, "down");
    fabric.ports.set(B, "down");
    await monitor.runOnce();
    expect(reports.at(-1)?.report.alerts.map((a) => [a.id, a.target])).toEqual([["IbPortDown", `0x${A}`]]);
    fabric.ports.set(A, "active");
    fabric.ports.set(B, "active");
    await monitor.runOnce();
    expect(reports.at(-1)?.report.alerts).toEqual([]);
  });

  it("records the fabric as unreachable, then clears IbCleanupPending once the GUIDs are unbound", async () => {
    fabric.down = true;
    expect(await monitor.runOnce()).toMatchObject({ ran: true, reachable: false });
    expect(await readFabricHealth(testDb.database.db, "fake")).toMatchObject({ reachable: false });
    await testDb.database.db.updateTable("instances").set({ release_requested_at: new Date() }).execute();
    await writeHostObservation(
      testDb.database.db,
      "h-1",
      { cleanupGuids: [A], reportedAlerts: ["IbCleanupPending||x"] },
      new Date(),
    );
    fabric.down = false;
    await monitor.runOnce();
    expect(fabric.pkeysOf(A)).toEqual([0x7fff]);
    expect((await readHostObservation(testDb.database.db, "h-1"))?.cleanupGuids).toEqual([]);
    expect(reports.at(-1)?.report.alerts).toEqual([]);
  });

  it("reports insecure SM settings in the fabric health and metrics", async () => {
    fabric.mKey = "0";
    await monitor.runOnce();
    expect(
      (await readFabricHealth(testDb.database.db, "fake"))?.securityFindings.map((f) => f.setting),
    ).toEqual(["m_key"]);
    expect(
      await registry.getSingleMetricAsString("racksmith_ib_monitor_insecure_fabric_configuration_count"),
    ).toContain('{fabric="fake"} 1');
  });

  it("does nothing while another replica holds the lock", async () => {
    await testDb.database.db.deleteFrom("work_locks").execute();
    await tryAcquireWorkLock(testDb.database.db, {
      key: IB_MONITOR_LOCK,
      owner: "other",
      now: new Date(),
      holdMs: 60_000,
    });
    expect(await monitor.runOnce()).toMatchObject({ ran: false });
  });
});

describe("the infiniband feature without fabrics.infiniband", () => {
  it("answers its APIs with infiniband_not_configured", async () => {
    const context = {
      config: { config: { fabrics: {} } },
      logger: silentLogger,
    } as unknown as FeatureContext;
    expect(infinibandFeature.machines?.(context.config)).toEqual([]);
    const runtime = await infinibandFeature.setup(context);
    const app = await startRest(runtime.rest ? [runtime.rest] : []);
    try {
      const answer = await app.inject({ method: "GET", url: "/api/v1/ib-partitions" });
      expect(answer.statusCode).toBe(412);
      expect(answer.json().error).toMatchObject({ code: "infiniband_not_configured" });
      expect(answer.json().error.message).toContain("fabrics.infiniband");
    } finally {
      await app.close();
    }
  });
});
