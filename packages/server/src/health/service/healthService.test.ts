import { silentLogger } from "@racksmith/core";
import { StateEngine } from "@racksmith/core/engine";
import { Registry } from "prom-client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { serialNumberMismatch } from "../../explorer/findings.js";
import {
  clearSite,
  insertHost,
  parkedManagedHostMachine,
  placeHost,
} from "../../lifecycle/agents/__fixtures__/site.js";
import { openTestDatabase, recordingEngine, type TestDatabase } from "../../testing/index.js";
import { exploreEndpoint, reportDpuAgent, reportValidation } from "./__fixtures__/healthSite.js";
import type { HealthConfig } from "./config.js";
import { HealthService } from "./healthService.js";

let testDb: TestDatabase;
let engine: StateEngine;
let spy: ReturnType<typeof recordingEngine>;
let registry: Registry;
let service: HealthService;
let now = new Date("2026-04-01T08:00:00.000Z");
const MINUTE = 60_000;

function newService(config: HealthConfig = {}) {
  registry = new Registry();
  return new HealthService({
    database: testDb.database,
    engine: spy,
    logger: silentLogger,
    clock: () => now,
    config,
    metrics: registry,
  });
}

const ids = (alerts: { id: string }[]) => alerts.map((a) => a.id);
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as { code: string; status: string; message: string },
  );

beforeAll(async () => {
  testDb = await openTestDatabase("health_service");
  engine = new StateEngine({ database: testDb.database, machines: [parkedManagedHostMachine()] });
  spy = recordingEngine(engine);
});
afterAll(async () => {
  await testDb?.close();
});
beforeEach(async () => {
  await clearSite(testDb.database);
  await testDb.database.db.deleteFrom("explored_endpoints").execute();
  spy.enqueued.length = 0;
  now = new Date("2026-04-01T08:00:00.000Z");
  service = newService();
  await insertHost(testDb.database, { id: "h-1", dpus: [{ id: "d-1", hostFacingMac: "B8:3F:D2:00:00:01" }] });
  await placeHost(engine, testDb.database, "h-1", { state: "ready" });
});

describe("aggregate", () => {
  it("raises HeartbeatTimeout for a DPU agent that never reported or stopped reporting", async () => {
    const silent = await service.aggregate("h-1");
    expect(silent.source).toBe("aggregate-host-health");
    expect(silent.alerts).toEqual([
      expect.objectContaining({
        id: "HeartbeatTimeout",
        target: "forge-dpu-agent",
        inAlertSince: now.toISOString(),
        classifications: ["PreventAllocations", "PreventHostStateChanges"],
      }),
    ]);
    expect(ids(await service.allocationBlockers("h-1"))).toEqual(["HeartbeatTimeout"]);

    await reportDpuAgent(testDb.database, "d-1", now);
    expect((await service.aggregate("h-1")).alerts).toEqual([]);
    expect(await service.allocationBlockers("h-1")).toEqual([]);

    now = new Date(now.getTime() + 6 * MINUTE);
    expect(ids(await service.allocationBlockers("h-1"))).toEqual(["HeartbeatTimeout"]);
  });

  it("keeps DPU alerts but blocks nothing while the DPUs are being brought up", async () => {
    await placeHost(engine, testDb.database, "h-1", { state: "dpuInit" } as never);
    const report = await service.aggregate("h-1");
    expect(report.alerts.map((a) => [a.id, a.classifications])).toEqual([["HeartbeatTimeout", []]]);
    expect(await service.allocationBlockers("h-1")).toEqual([]);
  });

  it("merges the DPU agent's own alerts, explorer findings and the last validation", async () => {
    await reportDpuAgent(testDb.database, "d-1", now, {
      alerts: [{ id: "BgpPeeringTor", message: "no BGP session", classifications: ["PreventAllocations"] }],
    });
    await exploreEndpoint(testDb.database, "10.0.0.1", now, {
      findings: [serialNumberMismatch("SER-h-1", ["OTHER"])],
      powerStates: ["Off"],
    });
    await exploreEndpoint(testDb.database, "10.0.0.2", now, {
      lastError: { code: "unreachable", message: "connect ECONNREFUSED" },
    });
    await reportValidation(testDb.database, "h-1", now, {
      context: "discovery",
      passed: false,
      runBy: "burn-in",
      results: [{ name: "mem", passed: false, message: "ECC", durationMs: 1 }],
    });
    const report = await service.aggregate("h-1");
    expect(report.alerts.map((a) => [a.id, a.target ?? null])).toEqual([
      ["BgpPeeringTor", null],
      ["BmcExplorationFailure", "10.0.0.2"],
      ["FailedValidationTest", "mem"],
      ["PoweredOff", "10.0.0.1"],
      ["SerialNumberMismatch", "10.0.0.1"],
    ]);
  });

  it("resolves a DPU id to its host and refuses an unknown machine", async () => {
    expect(ids((await service.aggregate("d-1")).alerts)).toEqual(["HeartbeatTimeout"]);
    expect(await failure(service.aggregate("nope"))).toMatchObject({
      code: "machine_not_found",
      status: "NOT_FOUND",
    });
  });
});

describe("overrides", () => {
  beforeEach(async () => {
    await reportDpuAgent(testDb.database, "d-1", now);
  });

  it("a maintenance merge override blocks allocation and wakes the host's lifecycle", async () => {
    const view = await service.addOverride("h-1", { template: "maintenance" }, { triggeredBy: "alice" });
    expect(view).toMatchObject({
      machineId: "h-1",
      hostId: "h-1",
      kind: "host",
      overrides: [{ source: "maintenance", mode: "merge" }],
    });
    const blockers = await service.allocationBlockers("h-1");
    expect(blockers.map((a) => [a.id, a.message])).toEqual([["Maintenance", "Host is under maintenance"]]);
    expect(spy.enqueued).toEqual(["h-1"]);
  });

  it("a mark-healthy replace override makes the host allocatable; removing it restores the alert", async () => {
    now = new Date(now.getTime() + 10 * MINUTE); // the DPU agent is silent now
    expect(ids(await service.allocationBlockers("h-1"))).toEqual(["HeartbeatTimeout"]);
    const healthy = await service.addOverride("h-1", { template: "mark-healthy" }, { source: "sre" });
    expect(healthy.overrides).toEqual([{ source: "sre", mode: "replace" }]);
    expect(healthy.report).toMatchObject({ source: "aggregate-host-health", alerts: [] });
    expect(await service.allocationBlockers("h-1")).toEqual([]);

    const removed = await service.removeOverride("h-1", "sre");
    expect(removed.overrides).toEqual([]);
    expect(ids(await service.allocationBlockers("h-1"))).toEqual(["HeartbeatTimeout"]);
    expect(spy.enqueued).toEqual(["h-1", "h-1"]);
  });

  it("keeps one override per source, several merges side by side", async () => {
    await service.addOverride("h-1", { template: "degraded" });
    await service.addOverride(
      "h-1",
      {
        report: {
          source: "fleet",
          successes: [],
          alerts: [{ id: "Fleet", message: "ticket 1", classifications: [] }],
        },
      },
      { mode: "merge" },
    );
    await service.addOverride("h-1", { template: "out-for-repair" }, { source: "fleet" });
    const view = await service.show("h-1");
    expect(view.overrides).toEqual([
      { source: "degraded", mode: "merge" },
      { source: "fleet", mode: "merge" },
    ]);
    expect(ids(view.report.alerts)).toEqual(["Degraded", "OutForRepair"]);
  });

  it("refuses removing a source that has no override, naming it", async () => {
    const error = await failure(service.removeOverride("h-1", "ghost"));
    expect(error).toMatchObject({ code: "health_override_not_found", status: "NOT_FOUND" });
    expect(error.message).toContain('"ghost"');
  });

  it("refuses a replace override on a DPU; a DPU's merge override counts for its host", async () => {
    const refused = await failure(service.addOverride("d-1", { template: "mark-healthy" }));
    expect(refused).toMatchObject({ code: "dpu_replace_override", status: "INVALID_ARGUMENT" });
    const dpu = await service.addOverride("d-1", { template: "maintenance" });
    expect(dpu).toMatchObject({ machineId: "d-1", hostId: "h-1", kind: "dpu" });
    expect(ids(dpu.report.alerts)).toEqual(["Maintenance"]);
    expect(ids(await service.allocationBlockers("h-1"))).toEqual(["Maintenance"]);
    expect((await service.show("h-1")).overrides).toEqual([]);
  });

  it("refuses an unknown template", async () => {
    expect(await failure(service.addOverride("h-1", { template: "vacation" }))).toMatchObject({
      code: "invalid_argument",
    });
  });
});

describe("history", () => {
  it("adds a row only when the content changes, keeps inAlertSince, and is bounded", async () => {
    service = newService({ historyLimit: 2 });
    const first = await service.aggregate("h-1");
    now = new Date(now.getTime() + MINUTE);
    const again = await service.aggregate("h-1");
    expect(again.alerts[0]?.inAlertSince).toBe(first.alerts[0]?.inAlertSince);
    expect((await service.history("h-1")).entries).toHaveLength(1);

    await reportDpuAgent(testDb.database, "d-1", now);
    await service.aggregate("h-1");
    await service.addOverride("h-1", { template: "maintenance" });
    const history = await service.history("d-1", 10);
    expect(history.hostId).toBe("h-1");
    expect(history.entries.map((e) => ids(e.report.alerts))).toEqual([["Maintenance"], []]);
    expect((await service.history("h-1", 1)).entries).toHaveLength(1);
  });
});

describe("recordReport", () => {
  const sensor = {
    source: "hardware-health",
    successes: [],
    alerts: [
      { id: "BmcSensor", target: "PSU0", message: "PSU0 critical", classifications: ["PreventAllocations"] },
    ],
  };

  beforeEach(async () => {
    await reportDpuAgent(testDb.database, "d-1", now);
  });

  it.each([
    ["enabled", [["BmcSensor", ["PreventAllocations"]]], ["BmcSensor"]],
    ["monitorOnly", [["BmcSensor", []]], []],
    ["disabled", [], []],
  ] as const)("sensor alerts %s", async (mode, alerts, blockers) => {
    service = newService({ sensorAlerts: mode });
    await service.recordReport("h-1", sensor);
    expect((await service.aggregate("h-1")).alerts.map((a) => [a.id, a.classifications])).toEqual(alerts);
    expect(ids(await service.allocationBlockers("h-1"))).toEqual(blockers);
  });

  it("merges probe reports of the host and its DPUs, waking the lifecycle only on a change", async () => {
    const probe = {
      source: "nvme-wear",
      successes: [],
      alerts: [{ id: "NvmeWear", message: "90%", classifications: [] }],
    };
    await service.recordReport("d-1", probe);
    expect(ids((await service.aggregate("h-1")).alerts)).toEqual(["NvmeWear"]);
    expect(spy.enqueued).toEqual(["h-1"]);
    now = new Date(now.getTime() + 1000);
    await service.recordReport("d-1", probe);
    expect(spy.enqueued).toEqual(["h-1"]);
  });

  it("refuses an unknown machine", async () => {
    expect(await failure(service.recordReport("nope", sensor))).toMatchObject({ code: "machine_not_found" });
  });

  it.each([
    // [refresh, seconds after the first report, what is stored then]
    { refreshMs: 5 * MINUTE, sameAfterS: 60, stored: "the first report" },
    { refreshMs: 5 * MINUTE, sameAfterS: 300, stored: "the repeat" },
    { refreshMs: 0, sameAfterS: 1, stored: "the repeat" },
  ])("stores a repeated report after $sameAfterS s with refresh $refreshMs ms: $stored", async (row) => {
    service = newService({ unchangedReportRefreshMs: row.refreshMs });
    const storedAt = async () =>
      (
        await testDb.database.db
          .selectFrom("health_reports")
          .select("updated_at")
          .where("machine_id", "=", "h-1")
          .where("source", "=", sensor.source)
          .executeTakeFirstOrThrow()
      ).updated_at.toISOString();
    const first = now.toISOString();
    await service.recordReport("h-1", { ...sensor, observedAt: first });
    now = new Date(now.getTime() + row.sameAfterS * 1000);
    await service.recordReport("h-1", { ...sensor, observedAt: now.toISOString() });
    expect(await storedAt()).toBe(row.stored === "the repeat" ? now.toISOString() : first);

    // A report that says something else is stored at once.
    now = new Date(now.getTime() + 1000);
    await service.recordReport("h-1", { ...sensor, alerts: [] });
    expect(await storedAt()).toBe(now.toISOString());
    expect((await service.aggregate("h-1")).alerts.map((a) => a.id)).not.toContain("BmcSensor");
  });
});

describe("refreshing an unchanged report", () => {
  const sensor = {
    source: "hardware-health",
    successes: [],
    alerts: [{ id: "BmcSensor", target: "FAN1", message: "FAN1 slow", classifications: [] }],
  };
  const stored = async () =>
    testDb.database.db
      .selectFrom("health_reports")
      .select(["report", "updated_at"])
      .where("machine_id", "=", "h-1")
      .where("source", "=", sensor.source)
      .executeTakeFirstOrThrow();
  const aggregateRow = async () =>
    testDb.database.db
      .selectFrom("machine_health")
      .select(["aggregate", "aggregate_hash"])
      .where("machine_id", "=", "h-1")
      .executeTakeFirstOrThrow();

  beforeEach(async () => {
    await reportDpuAgent(testDb.database, "d-1", now);
  });

  it("moves observedAt and the time, keeps inAlertSince, adds no history, and takes fewer statements", async () => {
    const first = now.toISOString();
    const statements = () => testDb.database.statements().statements;
    let before = statements();
    await service.recordReport("h-1", { ...sensor, observedAt: first });
    const fullPath = statements() - before;
    const firstAggregate = await aggregateRow();

    now = new Date(now.getTime() + 6 * MINUTE);
    await reportDpuAgent(testDb.database, "d-1", now);
    before = statements();
    await service.recordReport("h-1", { ...sensor, observedAt: now.toISOString() });
    const refreshPath = statements() - before;

    const row = await stored();
    expect(row.updated_at.toISOString()).toBe(now.toISOString());
    expect(row.report.observedAt).toBe(now.toISOString());
    expect(row.report.alerts.map((a) => [a.id, a.inAlertSince])).toEqual([["BmcSensor", first]]);
    const aggregate = await aggregateRow();
    expect(aggregate.aggregate_hash).toBe(firstAggregate.aggregate_hash);
    expect(aggregate.aggregate?.observedAt).not.toBe(firstAggregate.aggregate?.observedAt);
    expect(aggregate.aggregate?.alerts.find((a) => a.id === "BmcSensor")?.inAlertSince).toBe(first);
    expect((await service.history("h-1", 10)).entries).toHaveLength(1);
    expect(refreshPath).toBeLessThan(fullPath);
  });

  it("derives a host's aggregate once per refresh period, not at each of its machines' refreshes", async () => {
    const dpuSensor = { ...sensor, alerts: [] };
    await service.recordReport("h-1", sensor);
    await service.recordReport("d-1", dpuSensor);
    now = new Date(now.getTime() + 6 * MINUTE);
    await reportDpuAgent(testDb.database, "d-1", now);
    const statements = () => testDb.database.statements().statements;
    let before = statements();
    await service.recordReport("h-1", sensor);
    const hostRefresh = statements() - before;
    before = statements();
    await service.recordReport("d-1", dpuSensor);
    expect(statements() - before).toBe(1);
    expect(hostRefresh).toBeGreaterThan(1);
    const dpuRow = await testDb.database.db
      .selectFrom("health_reports")
      .select("updated_at")
      .where("machine_id", "=", "d-1")
      .where("source", "=", sensor.source)
      .executeTakeFirstOrThrow();
    expect(dpuRow.updated_at.toISOString()).toBe(now.toISOString());
  });

  it("stores the report in full when another replica stored one since", async () => {
    await service.recordReport("h-1", sensor);
    now = new Date(now.getTime() + 10_000);
    const other = newService();
    await other.recordReport("h-1", { ...sensor, alerts: [] });

    now = new Date(now.getTime() + 6 * MINUTE);
    await service.recordReport("h-1", sensor);
    const row = await stored();
    expect(row.updated_at.toISOString()).toBe(now.toISOString());
    // Refreshed over the other replica's row, its empty report would have stayed.
    expect(row.report.alerts.map((a) => [a.id, a.inAlertSince])).toEqual([["BmcSensor", now.toISOString()]]);
    expect(ids((await service.aggregate("h-1")).alerts)).toContain("BmcSensor");
  });
});

describe("metrics", () => {
  it("exports the aggregate's alerts per classification and hosts per status", async () => {
    await reportDpuAgent(testDb.database, "d-1", now);
    await service.addOverride("h-1", { template: "maintenance" });
    const text = await registry.metrics();
    expect(text).toContain(
      'racksmith_health_alerts{machine_id="h-1",probe_id="Maintenance",target="",classification="SuppressExternalAlerting",suppressed="true"} 1',
    );
    expect(text).toContain('racksmith_health_hosts{status="unallocatable"} 1');
    await service.removeOverride("h-1", "maintenance");
    const after = await registry.metrics();
    expect(after).not.toContain('probe_id="Maintenance"');
    expect(after).toContain('racksmith_health_hosts{status="healthy"} 1');
  });
});
