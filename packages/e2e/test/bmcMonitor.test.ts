import {
  type BmcDriver,
  type BmcDriverDefinition,
  collectRegistrations,
  connectBmc,
  redfishStandardDriver,
} from "@racksmith/core";
import type { HealthReport } from "@racksmith/core/health";
import { RedfishClient } from "@racksmith/core/redfish";
import dell from "@racksmith/driver-dell";
import lenovo from "@racksmith/driver-lenovo";
import nvidiaDpu from "@racksmith/driver-nvidia-dpu";
import {
  BmcMonitor,
  type Database,
  type MonitorBmcAccess,
  migrate,
  openDatabase,
  resolveMonitorConfig,
} from "@racksmith/server";
import { type Fleet, generateScenario, startFleet } from "@racksmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Issue 7's acceptance: a virtual BMC whose fan crosses its critical threshold gets a BmcSensor alert with
// SensorCritical within one collection, through the real drivers and the fleet's Redfish.
const drivers: BmcDriverDefinition[] = [];
for (const plugin of [dell, lenovo, nvidiaDpu])
  drivers.push(...(await collectRegistrations(plugin)).bmcDrivers);

let fleet: Fleet;
let database: Database;

/** Each session connects its BMCs through the fleet with their own credentials, as the service would. */
const access: MonitorBmcAccess = (signal) => {
  const clients: RedfishClient[] = [];
  return {
    async of(machine): Promise<BmcDriver> {
      const bmc = fleet.bmcs.find((b) => b.id === machine.id);
      if (!bmc) throw new Error(`no virtual BMC ${machine.id}`);
      const client = new RedfishClient({
        address: `http://${bmc.address}`,
        connectVia: fleet.url,
        credentials: bmc.credentials,
        signal,
      });
      clients.push(client);
      return (await connectBmc(client, { drivers, fallback: redfishStandardDriver })).driver;
    },
    close: async () => {
      await Promise.all(clients.map((c) => c.close()));
    },
  };
};

beforeAll(async () => {
  fleet = await startFleet({ scenario: generateScenario({ hosts: 2 }) });
  database = await openDatabase({ inMemory: true });
  await migrate(database);
  await database.db
    .insertInto("machines")
    .values(
      fleet.bmcs.map((bmc) => ({
        id: bmc.id,
        kind: bmc.kind,
        serial: bmc.serial,
        bmc_address: bmc.address ?? "",
        bmc_mac: bmc.mac,
        host_id: bmc.kind === "dpu" ? bmc.id.replace(/-dpu\d+$/, "") : null,
        host_facing_mac: bmc.kind === "dpu" ? `02:00:00:00:01:${bmc.mac.slice(-2)}` : null,
        vendor: bmc.vendor,
        model: bmc.model,
        created_at: new Date(),
      })),
    )
    .execute();
});

afterAll(async () => {
  await database?.close();
  await fleet?.stop();
});

describe("BMC monitor over a simulated fleet", () => {
  it("raises BmcSensor SensorCritical for a fan below its critical threshold within one collection", async () => {
    const reports: Array<[string, HealthReport]> = [];
    const monitor = new BmcMonitor({
      database: database.db,
      bmcAccess: access,
      recordReport: async (machineId, report) => {
        reports.push([machineId, report]);
      },
      logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
      config: resolveMonitorConfig({ jitterMs: 0 }),
    });
    const first = await monitor.runOnce({ tasks: ["sensors", "firmware"] });
    expect(first).toMatchObject({ machines: 4, errors: 0 });
    expect(reports).toHaveLength(4);

    // The Lenovo host's Sensors collection has fan 80L0: the fan slows down and the BMC says so.
    const lenovoHost = fleet.bmcs.find((b) => b.vendor === "lenovo" && b.kind === "host");
    if (!lenovoHost) throw new Error("the scenario has no Lenovo host");
    const service = await lenovoHost.service();
    await service.merge("/redfish/v1/Chassis/1/Sensors/80L0", {
      Reading: 300,
      Thresholds: { LowerCritical: { Reading: 1000 }, LowerCaution: { Reading: 2000 } },
      Status: { State: "Enabled", Health: "Critical" },
    });
    reports.length = 0;
    await monitor.runOnce({ tasks: ["sensors"] });

    const report = reports.find(([id]) => id === lenovoHost.id)?.[1];
    expect(report?.source).toBe("hardware-health");
    expect(report?.alerts).toEqual([
      expect.objectContaining({
        id: "BmcSensor",
        target: "80L0",
        classifications: ["Hardware", "SensorCritical", "PreventAllocations"],
        message: expect.stringMatching(/^fan '80L0': Critical - reading 300\.00RPM \(fan\)/),
      }),
    ]);
    const metrics = await monitor.registry.metrics();
    expect(metrics).toContain(
      `racksmith_bmc_sensor_reading{machine_id="${lenovoHost.id}",bmc_mac="${lenovoHost.mac}",sensor="80L0",unit="RPM",type="fan"} 300`,
    );
    expect(metrics).toMatch(/racksmith_bmc_firmware_version_info\{machine_id="host-\d+-dpu1"/);
    await monitor.stop();
  });
});
