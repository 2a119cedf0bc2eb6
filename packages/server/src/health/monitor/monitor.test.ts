import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LogEntryInfo, SensorReading } from "@racksmith/core";
import { NotSupportedError, RacksmithError, silentLogger } from "@racksmith/core";
import type { HealthReport } from "@racksmith/core/health";
import { defineHealthProbe } from "@racksmith/core/health";
import type { ServiceProbe } from "@racksmith/core/redfish";
import { Registry } from "prom-client";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ServiceProbeCache } from "../../lifecycle/bmc/index.js";
import { openTestDatabase, type TestDatabase, waitFor } from "../../testing/index.js";
import { resolveMonitorConfig } from "./config.js";
import { BmcMonitor, type MonitorBmcAccess } from "./monitor.js";
import type { MonitorBmc } from "./readings.js";
import { healthReportRecorder } from "./reportStore.js";

/** A scripted BMC: readings, firmware and log entries the test changes between passes. */
class ScriptedBmc implements MonitorBmc {
  fanRpm = 6000;
  firmwareVersion = "1.0";
  sel: LogEntryInfo[] = [entry("1"), entry("2")];
  failWith: Error | undefined;
  calls = 0;
  async sensors(): Promise<SensorReading[]> {
    this.calls += 1;
    if (this.failWith) throw this.failWith;
    return [
      {
        id: "Fan1",
        name: "Fan 1",
        kind: "fan",
        reading: this.fanRpm,
        units: "RPM",
        source: "1",
        health: undefined,
        state: "Enabled",
        thresholds: { lowerCritical: 600, upperCritical: 20_000 },
      },
    ];
  }
  async thermal(): Promise<SensorReading[]> {
    return [];
  }
  async powerMetrics() {
    return { consumedWatts: 300, supplies: [] };
  }
  async firmwareInventory() {
    return [{ id: "BMC", name: "BMC_Firmware", version: this.firmwareVersion, updateable: true }];
  }
  async systemEventLog(query: { sinceId?: string } = {}) {
    return this.sel.filter((e) => query.sinceId === undefined || Number(e.id) > Number(query.sinceId));
  }
  async bmcEventLog(): Promise<LogEntryInfo[]> {
    throw new NotSupportedError("BMC event log", "no log service");
  }
}

function entry(id: string): LogEntryInfo {
  return {
    id,
    created: undefined,
    severity: "OK",
    message: `event ${id}`,
    messageId: undefined,
    source: "SEL",
  };
}

let testDb: TestDatabase;
let dir: string;
const bmcs = new Map<string, ScriptedBmc>();
const access: MonitorBmcAccess = () => ({
  of: async (machine) => {
    const bmc = bmcs.get(machine.id);
    if (!bmc) throw new RacksmithError("invalid_argument", "INVALID_ARGUMENT", "no credentials");
    return bmc;
  },
  close: async () => undefined,
});

async function addMachine(id: string, hostId?: string): Promise<void> {
  const index = (await testDb.database.db.selectFrom("machines").select("id").execute()).length + 1;
  await testDb.database.db
    .insertInto("machines")
    .values({
      id,
      kind: hostId ? "dpu" : "host",
      serial: `SN-${id}`,
      bmc_address: `10.0.0.${index}`,
      bmc_mac: `02:00:00:00:00:${index.toString(16).padStart(2, "0")}`,
      host_id: hostId ?? null,
      host_facing_mac: hostId ? `02:00:00:00:01:${index.toString(16).padStart(2, "0")}` : null,
      vendor: "test",
      model: "test",
      created_at: new Date(),
    })
    .execute();
}

function monitorWith(
  options: {
    reports?: Array<[string, HealthReport]>;
    registry?: Registry;
    serviceProbes?: ServiceProbeCache;
  } = {},
) {
  const reports = options.reports ?? [];
  const registry = options.registry ?? new Registry();
  const monitor = new BmcMonitor({
    database: testDb.database.db,
    bmcAccess: access,
    recordReport: async (machineId, report) => {
      reports.push([machineId, report]);
    },
    registry,
    logger: silentLogger,
    config: resolveMonitorConfig({ eventLogDir: dir, jitterMs: 0, sensorIntervalMs: 60_000 }),
    random: () => 0,
    ...(options.serviceProbes ? { serviceProbes: options.serviceProbes } : {}),
  });
  return { monitor, reports, registry };
}

/** host-1 answers, host-2 times out, host-3 has no BMC access (no credentials). */
async function threeHostsOneTimingOut(): Promise<void> {
  await addMachine("host-1");
  await addMachine("host-2");
  await addMachine("host-3");
  bmcs.set("host-1", new ScriptedBmc());
  const failing = new ScriptedBmc();
  failing.failWith = new RacksmithError("redfish_timeout", "DEADLINE_EXCEEDED", "BMC did not answer");
  bmcs.set("host-2", failing);
}

beforeAll(async () => {
  testDb = await openTestDatabase("monitor");
});
afterAll(async () => {
  await testDb.close();
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "racksmith-monitor-"));
  bmcs.clear();
  await testDb.database.db.deleteFrom("machines").execute();
});
afterEach(async () => {
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

describe("BmcMonitor.runOnce", () => {
  it("reports a fan below its critical threshold, exports gauges and appends only new log entries", async () => {
    await addMachine("host-1");
    const bmc = new ScriptedBmc();
    bmcs.set("host-1", bmc);
    const { monitor, reports, registry } = monitorWith();

    await monitor.runOnce();
    expect(reports.at(-1)?.[1].successes).toEqual([{ id: "BmcSensor", target: "Fan1" }]);
    bmc.fanRpm = 100;
    bmc.firmwareVersion = "1.1";
    bmc.sel.push(entry("3"));
    await monitor.runOnce();

    const [machineId, report] = reports.at(-1) ?? [];
    expect(machineId).toBe("host-1");
    expect(report?.alerts).toEqual([
      expect.objectContaining({
        id: "BmcSensor",
        target: "Fan1",
        classifications: ["Hardware", "SensorCritical", "PreventAllocations"],
      }),
    ]);
    const text = await registry.metrics();
    expect(text).toContain(
      'racksmith_bmc_sensor_reading{machine_id="host-1",bmc_mac="02:00:00:00:00:01",sensor="Fan1",unit="RPM",type="fan"} 100',
    );
    expect(text).toContain('firmware_name="BMC_Firmware",version="1.1"} 1');
    expect(text).not.toContain('version="1.0"');
    const lines = (await readFile(join(dir, "host-1.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual(["1", "2", "3"]);
    expect(lines[2]).toMatchObject({
      machineId: "host-1",
      log: "system",
      service: "SEL",
      message: "event 3",
    });
    const cursor = await testDb.database.db
      .withTables<{ event_log_cursors: { machine_id: string; log: string; last_entry_id: string } }>()
      .selectFrom("event_log_cursors")
      .selectAll()
      .execute();
    expect(cursor).toEqual([
      expect.objectContaining({ machine_id: "host-1", log: "system", last_entry_id: "3" }),
    ]);
  });

  it("counts errors per BMC and kind, and drops a deleted machine's series", async () => {
    await threeHostsOneTimingOut();
    const { monitor, registry } = monitorWith();

    const result = await monitor.runOnce({ tasks: ["sensors"] });
    expect(result).toMatchObject({ machines: 3, collections: 2, errors: 2 });
    let text = await registry.metrics();
    expect(text).toContain(
      'racksmith_bmc_collection_errors_total{machine_id="host-2",kind="sensors",code="redfish_timeout"} 1',
    );
    expect(text).toContain(
      'racksmith_bmc_collection_errors_total{machine_id="host-3",kind="connect",code="invalid_argument"} 1',
    );
    expect(text).toContain('sensor_reading{machine_id="host-1"');

    await testDb.database.db.deleteFrom("machines").where("id", "in", ["host-1", "host-3"]).execute();
    await monitor.runOnce({ tasks: ["sensors"] });
    text = await registry.metrics();
    expect(text).not.toContain('machine_id="host-1"');
    expect(text).not.toContain('machine_id="host-3"');
    expect(text).toContain('machine_id="host-2",kind="sensors",code="redfish_timeout"} 2');
  });

  it("drops the service description of a BMC that failed, not of one lacking an operation, nor of departed ones", async () => {
    await threeHostsOneTimingOut();
    const lacking = new ScriptedBmc();
    lacking.firmwareInventory = async () => {
      throw new NotSupportedError("firmware inventory", "no UpdateService");
    };
    bmcs.set("host-3", lacking);
    const serviceProbes = new ServiceProbeCache();
    const described = ["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.9"];
    for (const address of described)
      serviceProbes.set(address, {
        serviceRoot: { "@odata.id": "/redfish/v1", Id: "RootService", Name: address },
        vendor: address,
        product: undefined,
        oemKeys: [],
        metadata: undefined,
        systemIds: [],
        managerIds: [],
        chassisIds: [],
        diagnostics: [],
      } satisfies ServiceProbe);
    const { monitor } = monitorWith({ serviceProbes });

    const result = await monitor.runOnce({ tasks: ["sensors", "firmware"] });
    expect(result).toMatchObject({ machines: 3, errors: 2 });
    expect(described.filter((address) => serviceProbes.get(address))).toEqual(["10.0.0.1", "10.0.0.3"]);
  });

  it("falls back to Thermal and Power when the BMC has no Sensors collection", async () => {
    await addMachine("host-1");
    const bmc = new ScriptedBmc();
    bmc.failWith = new NotSupportedError("sensors", "no chassis has a Sensors collection");
    bmc.thermal = async () => [
      {
        id: "Inlet",
        name: "Inlet",
        kind: "temperature",
        reading: 50,
        units: "Cel",
        source: "1",
        health: "Warning",
        state: "Enabled",
        thresholds: { upperCaution: 42, upperCritical: 60 },
      },
    ];
    bmcs.set("host-1", bmc);
    const { monitor, reports } = monitorWith();
    await monitor.runOnce({ tasks: ["sensors"] });
    const report = reports[0]?.[1];
    expect(report?.alerts).toEqual([
      expect.objectContaining({ target: "Inlet", classifications: ["Hardware", "SensorWarning"] }),
    ]);
    expect(report?.successes).toEqual([{ id: "BmcSensor", target: "PowerConsumedWatts" }]);
  });
});

describe("healthReportRecorder", () => {
  it("upserts one row per machine and source, and skips a machine that is gone", async () => {
    await addMachine("host-1");
    const record = healthReportRecorder(testDb.database.db);
    const report = (alerts: number): HealthReport => ({
      source: "hardware-health",
      successes: [],
      alerts: Array.from({ length: alerts }, (_, i) => ({
        id: "BmcSensor",
        target: `S${i}`,
        message: "m",
        classifications: [],
      })),
    });
    await record("host-1", report(1));
    await record("host-1", report(2));
    await record("gone", report(1));
    const rows = await testDb.database.db
      .withTables<{ health_reports: { machine_id: string; source: string; report: HealthReport } }>()
      .selectFrom("health_reports")
      .selectAll()
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.report.alerts).toHaveLength(2);
  });
});

describe("BmcMonitor loop", () => {
  it("polls every sensor interval, firmware only when due, and runs polled plugin probes", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    await addMachine("host-1");
    await addMachine("dpu-1", "host-1");
    bmcs.set("host-1", new ScriptedBmc());
    bmcs.set("dpu-1", new ScriptedBmc());
    const firmware = vi.spyOn(ScriptedBmc.prototype, "firmwareInventory");
    const probeRuns: string[] = [];
    const probe = defineHealthProbe({
      name: "dpu-check",
      ids: ["DpuCheck"],
      targets: ["dpu"],
      intervalMs: 120_000,
      run: async ({ machineId, kind }) => {
        probeRuns.push(`${machineId}:${kind}`);
        return { source: "anything", successes: [{ id: "DpuCheck" }], alerts: [] };
      },
    });
    const reports: Array<[string, HealthReport]> = [];
    // A visit ends by closing its BMC session; what is left of a pass after its last visit is in memory only.
    let visits = 0;
    const countingAccess: MonitorBmcAccess = (signal) => {
      const session = access(signal);
      return {
        of: (machine) => session.of(machine),
        close: async () => {
          await session.close();
          visits++;
        },
      };
    };
    const monitor = new BmcMonitor({
      database: testDb.database.db,
      bmcAccess: countingAccess,
      recordReport: async (machineId, report) => {
        reports.push([machineId, report]);
      },
      registry: new Registry(),
      logger: silentLogger,
      config: resolveMonitorConfig({ jitterMs: 0, sensorIntervalMs: 60_000, firmwareIntervalMs: 180_000 }),
      random: () => 0,
      probes: () => [probe],
    });
    monitor.start();
    const sensorReports = () => reports.filter(([, r]) => r.source === "hardware-health").length;
    // Once both visits of a pass have ended, the pass has too and the next one is scheduled: only then is
    // fake time moved on, so every minute has exactly one pass. The waits are in real time, with no deadline
    // of their own (the test's timeout bounds them), and unlike vi.waitFor never move the fake timers: only
    // the test's explicit advances make time pass for the monitor.
    const passes = (count: number) =>
      waitFor(() => visits >= 2 * count, { timeoutMs: Number.POSITIVE_INFINITY });
    await vi.advanceTimersByTimeAsync(0); // the first pass, due at once (no jitter)
    await passes(1);
    expect(sensorReports()).toBe(2);
    for (let minute = 1; minute <= 3; minute++) {
      await vi.advanceTimersByTimeAsync(60_000);
      await passes(minute + 1);
      expect(sensorReports()).toBe(2 * (minute + 1));
    }
    await monitor.stop();
    expect(firmware).toHaveBeenCalledTimes(4); // at 0 and at 3 minutes, for both BMCs
    expect(probeRuns).toEqual(["dpu-1:dpu", "dpu-1:dpu"]); // at 0 and at 2 minutes
    expect(reports.filter(([, r]) => r.source === "dpu-check")).toHaveLength(2);
    firmware.mockRestore();
  });
});
