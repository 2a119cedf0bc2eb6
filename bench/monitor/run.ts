/**
 * BMC monitor benchmark: one sensor pass of `BmcMonitor.runOnce` over N virtual BMCs (see README.md).
 * A measurement, never part of `npm test`; it asserts nothing.
 */
import { parseArgs } from "node:util";
import {
  type BmcDriverDefinition,
  collectRegistrations,
  connectBmc,
  redfishStandardDriver,
  silentLogger,
} from "@racksmith/core";
import { RedfishClient } from "@racksmith/core/redfish";
import dell from "@racksmith/driver-dell";
import hpe from "@racksmith/driver-hpe";
import lenovo from "@racksmith/driver-lenovo";
import nvidiaDpu from "@racksmith/driver-nvidia-dpu";
import supermicro from "@racksmith/driver-supermicro";
import {
  BmcMonitor,
  type MonitorBmcAccess,
  migrate,
  openDatabase,
  resolveMonitorConfig,
} from "@racksmith/server";
import { generateScenario, startFleet } from "@racksmith/simulator";

const { values } = parseArgs({
  options: { bmcs: { type: "string", default: "2000" }, concurrency: { type: "string", default: "20" } },
});
const bmcCount = Number(values.bmcs);
const concurrency = Number(values.concurrency);

const drivers: BmcDriverDefinition[] = [];
for (const plugin of [dell, hpe, lenovo, supermicro, nvidiaDpu]) {
  drivers.push(...(await collectRegistrations(plugin)).bmcDrivers);
}

const fleet = await startFleet({ scenario: generateScenario({ hosts: Math.ceil(bmcCount / 2) }) });
const database = await openDatabase({ inMemory: true });
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
      host_facing_mac: null,
      vendor: bmc.vendor,
      model: bmc.model,
      created_at: new Date(),
    })),
  )
  .execute();

const client = (id: string, signal?: AbortSignal): RedfishClient => {
  const bmc = fleet.bmcs.find((b) => b.id === id);
  if (!bmc) throw new Error(`no virtual BMC ${id}`);
  return new RedfishClient({
    address: `http://${bmc.address}`,
    connectVia: fleet.url,
    credentials: bmc.credentials,
    ...(signal ? { signal } : {}),
  });
};

// The service's BMC access reuses the driver the explorer chose; select each BMC's once, untimed.
const chosen = new Map<string, BmcDriverDefinition>();
await Promise.all(
  fleet.bmcs.map(async (bmc) => {
    const probe = client(bmc.id);
    const { selection } = await connectBmc(probe, { drivers, fallback: redfishStandardDriver });
    chosen.set(bmc.id, selection.driver);
    await probe.close();
  }),
);

const access: MonitorBmcAccess = (signal) => {
  const clients: RedfishClient[] = [];
  return {
    of: async (machine) => {
      const c = client(machine.id, signal);
      clients.push(c);
      return (chosen.get(machine.id) ?? redfishStandardDriver).create(c, { logger: silentLogger });
    },
    close: async () => {
      await Promise.all(clients.map((c) => c.close()));
    },
  };
};

let reports = 0;
let alerts = 0;
const monitor = new BmcMonitor({
  database: database.db,
  bmcAccess: access,
  recordReport: async (_machineId, report) => {
    reports += 1;
    alerts += report.alerts.length;
  },
  logger: silentLogger,
  config: resolveMonitorConfig({ concurrency, jitterMs: 0 }),
});

async function timedPass(label: string): Promise<void> {
  const cpu = process.cpuUsage();
  const result = await monitor.runOnce({ tasks: ["sensors"] });
  const used = process.cpuUsage(cpu);
  const seconds = result.durationMs / 1000;
  const cpuSeconds = (used.user + used.system) / 1e6;
  const polls = result.collections - result.errors;
  console.log(
    `${label}: ${result.machines} BMCs, ${polls} polls, ${result.errors} errors in ${seconds.toFixed(2)} s — ` +
      `${(polls / seconds).toFixed(0)} BMC polls/s, ${((cpuSeconds / polls) * 1000).toFixed(2)} ms CPU per poll ` +
      `(${(cpuSeconds / polls).toFixed(4)} CPU s; fleet included)`,
  );
}

console.log(`bench:monitor — ${fleet.bmcs.length} virtual BMCs, concurrency ${concurrency}`);
await timedPass("first pass (fleet makes each BMC's service)");
reports = 0;
await timedPass("second pass");
console.log(`reports recorded: ${reports}, BmcSensor alerts: ${alerts}`);
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
const requests = fleet.stats;
console.log(`fleet: ${JSON.stringify(requests)}`);
await monitor.stop();
await database.close();
await fleet.stop();
