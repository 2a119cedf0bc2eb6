import { redfishStandardDriver, silentLogger } from "@racksmith/core";
import { StateEngine } from "@racksmith/core/engine";
import { sql } from "kysely";
import { Registry } from "prom-client";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { openTestDatabase, type TestDatabase } from "../testing/testDatabase.js";
import { Conditions } from "./__fixtures__/conditions.js";
import { FakeInventory } from "./__fixtures__/fakeInventory.js";
import { FakeRedfishBmc } from "./__fixtures__/fakeRedfishBmc.js";
import { TestCredentialStore } from "./__fixtures__/memoryCredentials.js";
import { dpuReport, hostReport, nonHostReport } from "./__fixtures__/reports.js";
import { ScriptedExplorer } from "./__fixtures__/scriptedExplorer.js";
import { createBmcConnector } from "./bmcConnector.js";
import { resolveSiteExplorerConfig, type SiteExplorerConfig } from "./configSchema.js";
import {
  type BmcExplorer,
  type EndpointExploration,
  EndpointExplorer,
  type EndpointToExplore,
} from "./endpointExplorer.js";
import { EndpointNotFoundError } from "./errors.js";
import type { AuthFailures } from "./lockout.js";
import { machineIdFor } from "./machineIds.js";
import { managedHostMachine } from "./managedHostMachine.js";
import { ExplorerMetrics } from "./metrics.js";
import { SiteExplorer } from "./siteExplorer.js";

const BF3 = "900-9D3B6-00CV-AA0";
let testDb: TestDatabase;
let engine: StateEngine;

beforeAll(async () => {
  testDb = await openTestDatabase("explorer");
  engine = new StateEngine({ database: testDb.database, machines: [managedHostMachine()] });
});
afterAll(async () => {
  await testDb.close();
});
beforeEach(async () => {
  const { db } = testDb.database;
  await db.deleteFrom("machines").execute();
  await db.deleteFrom("explored_endpoints").execute();
  await sql`DELETE FROM state_objects`.execute(db);
});

function siteExplorer(
  inventory: FakeInventory,
  explorer: SiteExplorer["deps"]["explorer"],
  config: SiteExplorerConfig = {},
  clock?: () => Date,
): { explorer: SiteExplorer; metrics: Registry } {
  const metrics = new Registry();
  return {
    metrics,
    explorer: new SiteExplorer({
      database: testDb.database,
      inventory,
      explorer,
      engine,
      config: resolveSiteExplorerConfig(config),
      metrics: new ExplorerMetrics(metrics),
      logger: silentLogger,
      ...(clock ? { clock } : {}),
    }),
  };
}

const mac = (n: number) => `AA:00:00:00:00:${n.toString(16).padStart(2, "0").toUpperCase()}`;

/** An explorer that reports each exploration as it ends: the tests wait on these, never on a clock. */
class ObservedExplorer implements BmcExplorer {
  readonly ended: Array<{ address: string; exploration: EndpointExploration }> = [];
  private readonly conditions = new Conditions();

  constructor(private readonly inner: BmcExplorer) {}

  async explore(endpoint: EndpointToExplore): Promise<EndpointExploration> {
    const exploration = await this.inner.explore(endpoint);
    this.ended.push({ address: endpoint.address, exploration });
    this.conditions.changed();
    return exploration;
  }

  powerOn(endpoint: Omit<EndpointToExplore, "mayRotate">): Promise<AuthFailures> {
    return this.inner.powerOn(endpoint);
  }

  /** The explorations of `address` that ended so far, oldest first. */
  endedFor(address: string): EndpointExploration[] {
    return this.ended.filter((e) => e.address === address).map((e) => e.exploration);
  }

  /** Resolves once `condition` holds, checked now and each time an exploration ends. */
  until(condition: () => boolean): Promise<void> {
    return this.conditions.until(condition);
  }
}

/**
 * Endpoint explorations ending at a deadline of `deadlineMs`, long before any request's own timeout (a
 * minute): a busy machine cannot turn a late answer into a timeout. Tests make the deadline timers fake
 * (`fakeDeadlines`) and pass a deadline once they saw what they wait for.
 */
function explorerWithDeadline(store: TestCredentialStore, deadlineMs: number): ObservedExplorer {
  const resolved = resolveSiteExplorerConfig({
    bmc: { scheme: "http", requestTimeoutMs: 60_000, connectTimeoutMs: 60_000, explorationTimeoutMs: 60_000 },
  });
  const config = { ...resolved, bmc: { ...resolved.bmc, explorationTimeoutMs: deadlineMs } };
  return new ObservedExplorer(
    new EndpointExplorer({
      connector: createBmcConnector(config, { logger: silentLogger }),
      credentials: store,
      drivers: () => [redfishStandardDriver],
      config,
      logger: silentLogger,
    }),
  );
}

/** Only timers are fake (the explorations' deadlines); sockets, the database and performance.now stay real. */
function fakeDeadlines(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
}

describe("an exploration run against BMCs", () => {
  const bmcs: FakeRedfishBmc[] = [];
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await Promise.all(bmcs.map((b) => b.stop()));
  });

  it("stores each endpoint's typed error while the others are explored", async () => {
    const store = new TestCredentialStore([
      [
        { kind: "factory-default", vendor: "contoso" },
        { username: "root", password: "pw-1" },
      ],
    ]);
    const start = async (options: Parameters<typeof FakeRedfishBmc.start>[0]) => {
      const bmc = await FakeRedfishBmc.start(options);
      bmcs.push(bmc);
      return bmc;
    };
    const inventory = new FakeInventory(store);
    // The slow BMC never answers: its exploration ends at its deadline, passed once every other endpoint
    // is explored.
    const slow = await start({ password: "pw-1", fault: "slow" });
    const addresses = {
      good1: (await start({ password: "pw-1", serial: "S1" })).address,
      good2: (await start({ password: "pw-1", serial: "S2" })).address,
      slow: slow.address,
      unauthorized: (await start({ password: "other" })).address,
      malformed: (await start({ password: "pw-1", fault: "malformed" })).address,
      unreachable: await FakeRedfishBmc.closedAddress(),
    };
    inventory.endpoints = Object.values(addresses).map((address, i) => ({ address, mac: mac(i + 1) }));
    const observed = explorerWithDeadline(store, 2_000);
    const { explorer, metrics } = siteExplorer(inventory, observed);
    fakeDeadlines();
    const running = explorer.runIteration();
    await observed.until(() => observed.ended.length === 5);
    await slow.until(() => slow.inFlight > 0);
    expect(observed.endedFor(addresses.slow)).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    const summary = await running;
    expect(summary).toMatchObject({ explored: 6, failed: 4 });

    const byAddress = new Map((await explorer.listEndpoints()).map((e) => [e.address, e]));
    for (const good of [addresses.good1, addresses.good2]) {
      expect(byAddress.get(good)).toMatchObject({
        vendor: "Contoso",
        driver: "redfish-standard",
        lastError: null,
        reportVersion: 1,
      });
    }
    expect(byAddress.get(addresses.slow)?.lastError?.code).toBe("timeout");
    expect(byAddress.get(addresses.unauthorized)?.lastError?.code).toBe("unauthorized");
    expect(byAddress.get(addresses.malformed)?.lastError?.code).toBe("malformed_response");
    expect(byAddress.get(addresses.unreachable)?.lastError?.code).toBe("unreachable");
    expect(byAddress.get(addresses.unreachable)?.reportVersion).toBe(0);
    const text = await metrics.metrics();
    expect(text).toMatch(/racksmith_site_explorer_exploration_errors_total\{code="timeout"\} 1/);
    expect(text).toMatch(/racksmith_site_explorer_endpoints_explored_total\{result="ok"\} 2/);

    const detail = await explorer.getEndpoint(addresses.good1);
    expect(detail.report?.systems[0]?.serialNumber).toBe("S1");
    expect(JSON.stringify(detail)).not.toContain("pw-1");
  });
});

describe("the exploration deadline in a run", () => {
  const bmcs: FakeRedfishBmc[] = [];
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await Promise.all(bmcs.map((b) => b.stop()));
  });

  it("records timeout for a BMC that answers every request slowly, without holding up the run or the others", async () => {
    const login = { username: "root", password: "pw-1" };
    const store = new TestCredentialStore([[{ kind: "factory-default", vendor: "contoso" }, login]]);
    const start = async (options: Parameters<typeof FakeRedfishBmc.start>[0]) => {
      const bmc = await FakeRedfishBmc.start(options);
      bmcs.push(bmc);
      return bmc;
    };
    // The slow BMC holds every request (none is answered before the deadline), the good ones answer at once.
    const slow = await start({ password: "pw-1", serial: "SLOW", hold: () => true });
    const good = [
      await start({ password: "pw-1", serial: "G1" }),
      await start({ password: "pw-1", serial: "G2" }),
    ];
    const inventory = new FakeInventory(store);
    inventory.endpoints = [slow, ...good].map((bmc, i) => ({ address: bmc.address, mac: mac(i + 1) }));
    const observed = explorerWithDeadline(store, 2_000);
    const { explorer, metrics } = siteExplorer(inventory, observed);
    fakeDeadlines();

    // The good BMCs are explored while the slow one's exploration waits on its first request (the probe).
    const running = explorer.runIteration();
    await observed.until(() => good.every((bmc) => observed.endedFor(bmc.address).length === 1));
    await slow.until(() => slow.heldRequests.length > 0);
    expect(observed.endedFor(slow.address)).toEqual([]);
    const sentBeforeDeadline = slow.requests;
    await vi.advanceTimersByTimeAsync(2_000);
    const summary = await running;
    expect(summary).toMatchObject({ explored: 3, failed: 1 });
    // The run ended at the deadline without an answer from the slow BMC: its request was dropped (the BMC saw
    // its client go), and none followed.
    await slow.until(() => slow.inFlight === 0);
    expect(slow.abandonedRequests).toBe(1);
    expect(slow.requests).toBe(sentBeforeDeadline);

    const slowEndpoint = await explorer.getEndpoint(slow.address);
    expect(slowEndpoint).toMatchObject({
      reportVersion: 0,
      report: null,
      lastError: { code: "timeout", message: expect.stringContaining("exceeded 2000 ms") },
    });
    // What the explorer measured up to the deadline is what the run stored.
    expect(slowEndpoint.latencyMs).toBe(observed.endedFor(slow.address)[0]?.latencyMs);
    for (const [i, bmc] of good.entries()) {
      const endpoint = await explorer.getEndpoint(bmc.address);
      expect(endpoint).toMatchObject({ lastError: null, reportVersion: 1 });
      expect(endpoint.report?.systems[0]?.serialNumber).toBe(`G${i + 1}`);
    }
    expect(await metrics.metrics()).toMatch(
      /racksmith_site_explorer_exploration_errors_total\{code="timeout"\} 1/,
    );

    // Explore now has the same deadline: it ends when it passes, the BMC still holding its request.
    const exploringNow = explorer.exploreNow(slow.address);
    await slow.until(() => slow.heldRequests.length === 2);
    await vi.advanceTimersByTimeAsync(2_000);
    const now = await exploringNow;
    expect(now).toMatchObject({
      report: null,
      error: { code: "timeout", message: expect.stringContaining("exceeded 2000 ms") },
    });
    await slow.until(() => slow.inFlight === 0);
    expect(slow.abandonedRequests).toBe(2);
    expect((await explorer.getEndpoint(slow.address)).reportVersion).toBe(0);
  });
});

describe("scheduling", () => {
  it("explores within the budget by priority and keeps the last report when an exploration fails", async () => {
    const inventory = new FakeInventory();
    inventory.endpoints = ["10.0.0.1", "10.0.0.2", "10.0.0.3"].map((address, i) => ({
      address,
      mac: mac(i + 1),
    }));
    const scripted = new ScriptedExplorer();
    for (const { address } of inventory.endpoints)
      scripted.script.set(address, { report: hostReport({ serial: address }) });
    const { explorer } = siteExplorer(inventory, scripted, { budget: 2 });

    // The first run leaves one endpoint never explored: the loop runs again soon for it.
    expect(await explorer.runIteration()).toMatchObject({ explored: 2, neverExploredLeft: 1 });
    expect(scripted.explored).toEqual(["10.0.0.1", "10.0.0.2"]);
    expect(await explorer.runIteration()).toMatchObject({ explored: 2, neverExploredLeft: 0 });
    expect(scripted.explored.slice(2)).toEqual(["10.0.0.3", "10.0.0.1"]);

    scripted.script.set("10.0.0.2", { error: { code: "timeout", message: "slow" } });
    await explorer.requestReExplore("10.0.0.2");
    expect((await explorer.getEndpoint("10.0.0.2")).explorationRequested).toBe(true);
    await explorer.runIteration();
    expect(scripted.explored.slice(4)).toEqual(["10.0.0.2", "10.0.0.3"]);
    const endpoint = await explorer.getEndpoint("10.0.0.2");
    expect(endpoint).toMatchObject({
      reportVersion: 1,
      lastError: { code: "timeout" },
      explorationRequested: false,
    });
    expect(endpoint.report?.systems[0]?.serialNumber).toBe("10.0.0.2");
    expect((await explorer.getEndpoint("10.0.0.1")).reportVersion).toBe(2);

    await expect(explorer.requestReExplore("10.9.9.9")).rejects.toBeInstanceOf(EndpointNotFoundError);
    inventory.endpoints = inventory.endpoints.slice(1);
    await explorer.runIteration();
    expect((await explorer.listEndpoints()).map((e) => e.address)).toEqual(["10.0.0.2", "10.0.0.3"]);
  });

  it("re-explores a BMC explored within the interval only when asked, or when its exploration failed", async () => {
    const inventory = new FakeInventory();
    inventory.endpoints = ["10.0.0.1", "10.0.0.2"].map((address, i) => ({ address, mac: mac(i + 1) }));
    // The scripted explorations end at 2026-01-01T00:00:0Ns; the runs happen a minute or three later.
    let now = new Date(Date.UTC(2026, 0, 1, 0, 1));
    const scripted = new ScriptedExplorer();
    scripted.script.set("10.0.0.1", { report: hostReport({ serial: "one" }) });
    scripted.script.set("10.0.0.2", { error: { code: "timeout", message: "slow" } });
    const { explorer } = siteExplorer(inventory, scripted, { intervalMs: 120_000 }, () => now);

    expect(await explorer.runIteration()).toMatchObject({ explored: 2 });
    // A run soon after (new BMCs, a backlog) retries the failed BMC and leaves the fresh one alone.
    expect(await explorer.runIteration()).toMatchObject({ explored: 1 });
    expect(scripted.explored.slice(2)).toEqual(["10.0.0.2"]);
    await explorer.requestReExplore("10.0.0.1");
    await explorer.runIteration();
    expect(scripted.explored.slice(3)).toEqual(["10.0.0.1", "10.0.0.2"]);
    // An interval after its last exploration, a BMC is due again.
    scripted.script.set("10.0.0.2", { report: hostReport({ serial: "two" }) });
    await explorer.runIteration();
    now = new Date(Date.UTC(2026, 0, 1, 0, 3));
    await explorer.runIteration();
    expect(scripted.explored.slice(5)).toEqual(["10.0.0.2", "10.0.0.1", "10.0.0.2"]);
  });

  it("explores now without storing the report", async () => {
    const inventory = new FakeInventory();
    inventory.endpoints = [{ address: "10.0.0.1", mac: mac(1) }];
    const scripted = new ScriptedExplorer();
    scripted.script.set("10.0.0.1", { report: hostReport({ serial: "NOW" }) });
    const { explorer } = siteExplorer(inventory, scripted);
    await explorer.runIteration();
    scripted.script.set("10.0.0.1", { report: hostReport({ serial: "LATER" }) });
    const now = await explorer.exploreNow("10.0.0.1");
    expect(now.report?.systems[0]?.serialNumber).toBe("LATER");
    const stored = await explorer.getEndpoint("10.0.0.1");
    expect(stored.reportVersion).toBe(1);
    expect(stored.report?.systems[0]?.serialNumber).toBe("NOW");
  });
});

describe("pairing and ingestion", () => {
  const HOST_NIC = "B8:3F:D2:00:00:01";

  function fleet(hosts: number) {
    const inventory = new FakeInventory();
    const scripted = new ScriptedExplorer();
    for (let i = 1; i <= hosts; i++) {
      const host = `10.0.1.${i}`;
      const dpu = `10.0.2.${i}`;
      inventory.endpoints.push({ address: host, mac: mac(i) }, { address: dpu, mac: mac(100 + i) });
      inventory.expect(mac(i), `HOST-${i}`);
      scripted.script.set(host, {
        report: hostReport({
          serial: `HOST-${i}`,
          pcie: [{ partNumber: BF3, serial: `DPU-${i}` }],
          nics: [{ mac: HOST_NIC }],
        }),
      });
      scripted.script.set(dpu, {
        report: dpuReport({ serial: `DPU-${i}`, baseMac: HOST_NIC, nicMode: "dpu" }),
      });
    }
    return { inventory, scripted };
  }

  it("ingests complete hosts once, with their DPUs, in the lifecycle's first state", async () => {
    const { inventory, scripted } = fleet(1);
    const { explorer, metrics } = siteExplorer(inventory, scripted);
    await explorer.runIteration();
    const hostId = machineIdFor("host", "HOST-1");
    const dpuId = machineIdFor("dpu", "DPU-1");
    expect(await explorer.listMachines()).toEqual(
      [
        {
          id: dpuId,
          kind: "dpu",
          state: "created",
          bmcAddress: "10.0.2.1",
          bmcMac: mac(101),
          serial: "DPU-1",
          host: hostId,
        },
        {
          id: hostId,
          kind: "host",
          state: "created",
          bmcAddress: "10.0.1.1",
          bmcMac: mac(1),
          serial: "HOST-1",
          dpus: [dpuId],
          primaryDpu: dpuId,
        },
      ].sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    expect(await explorer.listManagedHosts()).toEqual([
      expect.objectContaining({
        hostAddress: "10.0.1.1",
        status: "ingested",
        machineId: hostId,
        primaryDpu: dpuId,
      }),
    ]);
    const detail = await explorer.getMachine(hostId);
    expect(detail.history).toEqual([
      expect.objectContaining({ state: "created", label: "created", version: 1 }),
    ]);
    expect(detail.lifecycle).toMatchObject({
      stateLabel: "created",
      state: { state: "created" },
      sla: { slaMs: null, aboveSla: false },
      failure: null,
    });
    expect((await explorer.getMachine(dpuId)).hostFacingMac).toBe(HOST_NIC);
    expect(await metrics.metrics()).toMatch(/racksmith_site_explorer_ingested_hosts_total 1/);

    await explorer.runIteration();
    expect(await explorer.listMachines()).toHaveLength(2);
    expect((await explorer.listManagedHosts())[0]).toMatchObject({ status: "ingested", machineId: hostId });
  });

  it("keeps a managed host's verdict and still rejects a host showing a DPU that host owns", async () => {
    const { inventory, scripted } = fleet(1);
    const { explorer, metrics } = siteExplorer(inventory, scripted);
    await explorer.runIteration();
    const hostId = machineIdFor("host", "HOST-1");
    const [ingested] = await explorer.listManagedHosts();
    expect(ingested).toMatchObject({ status: "ingested", machineId: hostId });

    // A second host (another BMC) that shows the first one's DPU: its pairing reads the managed DPU's report.
    inventory.endpoints.push({ address: "10.0.1.9", mac: mac(9) });
    inventory.expect(mac(9), "HOST-9");
    scripted.script.set("10.0.1.9", {
      report: hostReport({
        serial: "HOST-9",
        pcie: [{ partNumber: BF3, serial: "DPU-1" }],
        nics: [{ mac: HOST_NIC }],
      }),
    });
    expect(await explorer.runIteration()).toMatchObject({ ingested: 0, rejected: 1 });
    const verdicts = new Map((await explorer.listManagedHosts()).map((h) => [h.hostAddress, h]));
    expect(verdicts.get("10.0.1.9")).toMatchObject({ status: "rejected", code: "dpu_attached_elsewhere" });
    // The managed host's verdict is the one its ingestion stored, not evaluated again.
    expect(verdicts.get("10.0.1.1")).toEqual(ingested);
    expect(await metrics.metrics()).toMatch(/racksmith_site_explorer_hosts\{status="ingested"\} 1/);

    // Once the machine is gone, the host is evaluated (and ingested) again.
    await testDb.database.db.deleteFrom("machines").execute();
    await sql`DELETE FROM state_objects`.execute(testDb.database.db);
    expect(await explorer.runIteration()).toMatchObject({ ingested: 1 });
    expect((await explorer.listManagedHosts()).find((h) => h.hostAddress === "10.0.1.1")).toMatchObject({
      status: "ingested",
      machineId: hostId,
    });
  });

  it("explores new BMCs in the order the inventory first saw them, so a host and its DPU pair in one run", async () => {
    const { inventory, scripted } = fleet(3);
    // Booted one host at a time (host 3 first), each host with its DPU; addresses sort otherwise.
    const seen = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, n));
    inventory.endpoints = [3, 2, 1].flatMap((i, order) => [
      { address: `10.0.1.${i}`, mac: mac(i), firstSeenAt: seen(order) },
      { address: `10.0.2.${i}`, mac: mac(100 + i), firstSeenAt: seen(order) },
    ]);
    const { explorer } = siteExplorer(inventory, scripted, { budget: 2 });
    expect(await explorer.runIteration()).toMatchObject({ explored: 2, ingested: 1 });
    expect((await explorer.listMachines()).map((m) => m.serial).sort()).toEqual(["DPU-3", "HOST-3"]);
    expect(await explorer.runIteration()).toMatchObject({ explored: 2, ingested: 1 });
    expect((await explorer.listMachines()).map((m) => m.serial)).toContain("HOST-2");
  });

  it("creates at most maxIngestionsPerRun hosts per run", async () => {
    const { inventory, scripted } = fleet(3);
    const { explorer } = siteExplorer(inventory, scripted, { maxIngestionsPerRun: 2 });
    expect(await explorer.runIteration()).toMatchObject({ ingested: 2, waiting: 1 });
    expect((await explorer.listManagedHosts()).find((h) => h.status === "waiting")).toMatchObject({
      code: "ingestion_limit",
    });
    expect(await explorer.runIteration()).toMatchObject({ ingested: 1, waiting: 0 });
    expect((await explorer.listMachines()).filter((m) => m.kind === "host")).toHaveLength(3);
  });

  it("never ingests a switch tray or a power shelf as a host, even one listed in expected machines", async () => {
    const { inventory, scripted } = fleet(1);
    inventory.endpoints.push({ address: "10.0.3.1", mac: mac(201) }, { address: "10.0.3.2", mac: mac(202) });
    inventory.expect(mac(201), "SWITCH-1");
    scripted.script.set("10.0.3.1", { report: nonHostReport({ kind: "switch", chassisSerial: "SWITCH-1" }) });
    scripted.script.set("10.0.3.2", {
      report: nonHostReport({ kind: "powerShelf", chassisSerial: "SHELF-1" }),
    });
    const { explorer, metrics } = siteExplorer(inventory, scripted);

    expect(await explorer.runIteration()).toMatchObject({ ingested: 1, waiting: 0, rejected: 2 });
    const verdicts = new Map((await explorer.listManagedHosts()).map((h) => [h.hostAddress, h]));
    expect(verdicts.get("10.0.3.1")).toMatchObject({
      status: "rejected",
      code: "not_a_host",
      reason: "not a host: an NVLink switch tray (chassis MGX_NVSwitch_0); only hosts are ingested",
      machineId: null,
      serial: "SWITCH-1",
    });
    expect(verdicts.get("10.0.3.2")).toMatchObject({
      status: "rejected",
      code: "not_a_host",
      reason: expect.stringContaining("a power shelf"),
    });
    expect((await explorer.getEndpoint("10.0.3.1")).findings).toEqual([]);
    expect((await explorer.listMachines()).map((m) => m.bmcAddress).sort()).toEqual(["10.0.1.1", "10.0.2.1"]);
    expect(await metrics.metrics()).toMatch(/racksmith_site_explorer_pairing_waits\{code="not_a_host"\} 2/);

    // The next run says the same and still creates nothing.
    await explorer.runIteration();
    expect((await explorer.listMachines()).filter((m) => m.kind === "host")).toHaveLength(1);
  });

  it("reports why the others are not ingested: serial mismatch, missing DPU, powered off, not expected", async () => {
    const { inventory, scripted } = fleet(4);
    inventory.machines[1] = {
      ...(inventory.machines[1] as (typeof inventory.machines)[number]),
      chassisSerial: "WRONG",
    };
    scripted.script.delete("10.0.2.3");
    inventory.endpoints = inventory.endpoints.filter((e) => e.address !== "10.0.2.3");
    scripted.script.set("10.0.1.4", {
      report: hostReport({
        serial: "HOST-4",
        power: "Off",
        pcie: [{ partNumber: BF3, serial: "DPU-4" }],
        nics: [{ mac: HOST_NIC }],
      }),
    });
    inventory.endpoints.push({ address: "10.0.1.9", mac: mac(9) });
    scripted.script.set("10.0.1.9", { report: hostReport({ serial: "STRAY" }) });
    const { explorer, metrics } = siteExplorer(inventory, scripted);

    expect(await explorer.runIteration()).toMatchObject({ ingested: 1, waiting: 2, rejected: 1 });
    const verdicts = new Map((await explorer.listManagedHosts()).map((h) => [h.hostAddress, h]));
    expect(verdicts.get("10.0.1.1")?.status).toBe("ingested");
    expect(verdicts.get("10.0.1.2")).toMatchObject({ status: "rejected", code: "serial_number_mismatch" });
    expect(verdicts.get("10.0.1.3")).toMatchObject({
      status: "waiting",
      code: "dpu_not_explored",
      reason: expect.stringContaining("DPU-3"),
    });
    expect(verdicts.get("10.0.1.4")).toMatchObject({ status: "waiting", code: "powering_on" });
    expect(verdicts.get("10.0.1.9")).toMatchObject({ status: "unexpected" });
    expect(scripted.poweredOn).toEqual(["10.0.1.4"]);
    expect((await explorer.getEndpoint("10.0.1.2")).findings).toEqual([
      expect.objectContaining({
        code: "SerialNumberMismatch",
        details: { expected: "WRONG", found: ["HOST-2"] },
      }),
    ]);
    expect((await explorer.getEndpoint("10.0.1.4")).explorationRequested).toBe(true);
    expect(await metrics.metrics()).toMatch(
      /racksmith_site_explorer_pairing_waits\{code="dpu_not_explored"\} 1/,
    );

    // Powered on once per retry period, and the mismatch finding goes away once the entry is fixed.
    inventory.machines[1] = {
      ...(inventory.machines[1] as (typeof inventory.machines)[number]),
      chassisSerial: "HOST-2",
    };
    await explorer.runIteration();
    expect(scripted.poweredOn).toEqual(["10.0.1.4"]);
    expect((await explorer.getEndpoint("10.0.1.2")).findings).toEqual([]);
    expect(
      (await explorer.listMachines())
        .filter((m) => m.kind === "host")
        .map((m) => m.serial)
        .sort(),
    ).toEqual(["HOST-1", "HOST-2"]);
  });
});
