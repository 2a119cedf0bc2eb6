/**
 * BMC monitor benchmark: sensor passes of `BmcMonitor.runOnce` over N virtual BMCs served by another process, so
 * the CPU and memory printed are the monitor's own (see README.md). A measurement, never part of `npm test`; it
 * asserts nothing.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { getHeapStatistics } from "node:v8";
import { type BmcDriverDefinition, redfishStandardDriver, silentLogger } from "@racksmith/core";
import { RedfishClient } from "@racksmith/core/redfish";
import {
  BmcMonitor,
  createDriverWithCachedProbe,
  HealthService,
  type MonitorBmcAccess,
  migrate,
  openDatabase,
  resolveMonitorConfig,
  ServiceProbeCache,
} from "@racksmith/server";
import { nextMessage } from "../shared/childMessages.js";
import { vendorDrivers } from "./drivers.js";
import type { FleetBmcInfo, FleetMessage } from "./fleetProcess.js";

// tsx maps every stack trace to the TypeScript sources, which the built service does not do (every closed
// connection makes an error whose stack Node reads): the bench runs as the built code would.
process.setSourceMapsEnabled(false);
const { values } = parseArgs({
  options: {
    bmcs: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "20" },
    // The machines table on PostgreSQL (a schema of its own, dropped at the end): the RSS printed is then the
    // monitor's without an embedded database in the process.
    "database-url": { type: "string" },
    // The health service's health.unchangedReportRefreshMs (0: every poll's report is stored).
    "report-refresh-ms": { type: "string" },
  },
});
const bmcCount = Number(values.bmcs);
const concurrency = Number(values.concurrency);

const drivers = await vendorDrivers();

// The fleet process (which inherits it) loads the vendor packages' behaviors from their sources.
process.env.RACKSMITH_PLUGIN_CONDITIONS ??= "@racksmith/source";
const fleetProcess = fork(
  fileURLToPath(new URL("./fleetProcess.ts", import.meta.url)),
  [String(Math.ceil(bmcCount / 2))],
  {
    execArgv: ["--conditions=@racksmith/source", "--import", "tsx"],
  },
);
const fleet = await nextMessage<FleetMessage, "ready">(fleetProcess, "ready");
const databaseUrl = values["database-url"];
const schema = `bench_monitor_${process.pid}`;
const database = await openDatabase(databaseUrl ? { url: databaseUrl, schema } : { inMemory: true });
await migrate(database);
// In batches: PostgreSQL takes at most 65,535 parameters per statement.
for (let start = 0; start < fleet.bmcs.length; start += 1_000) {
  await database.db
    .insertInto("machines")
    .values(
      fleet.bmcs.slice(start, start + 1_000).map((bmc) => ({
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
}

const byId = new Map<string, FleetBmcInfo>(fleet.bmcs.map((bmc) => [bmc.id, bmc]));
const client = (id: string, signal?: AbortSignal): RedfishClient => {
  const bmc = byId.get(id);
  if (!bmc) throw new Error(`no virtual BMC ${id}`);
  return new RedfishClient({
    address: `http://${bmc.address}`,
    connectVia: fleet.url,
    credentials: bmc.credentials,
    // As the service's monitor: a BMC's connections close with its poll (it is back a pass later).
    keepConnections: false,
    ...(signal ? { signal } : {}),
  });
};

// The service's BMC access reuses the driver the explorer chose: the fleet process selects each BMC's, untimed
// and outside this process (the selection is the explorer's work; here it would make the peak RSS its own).
fleetProcess.send("select");
const byName = new Map(drivers.map((definition) => [definition.name, definition]));
const chosen = new Map<string, BmcDriverDefinition>();
for (const [id, name] of Object.entries(
  (await nextMessage<FleetMessage, "selected">(fleetProcess, "selected")).drivers,
)) {
  const definition = byName.get(name);
  if (definition) chosen.set(id, definition);
}

// As the service's monitor: each BMC's service description is kept between passes (ServiceProbeCache).
const serviceProbes = new ServiceProbeCache();
const access: MonitorBmcAccess = (signal) => {
  const clients: RedfishClient[] = [];
  return {
    of: async (machine) => {
      const c = client(machine.id, signal);
      clients.push(c);
      const definition = chosen.get(machine.id) ?? redfishStandardDriver;
      return createDriverWithCachedProbe(
        definition,
        c,
        { logger: silentLogger },
        serviceProbes,
        machine.bmc_address,
      );
    },
    close: async () => {
      await Promise.all(clients.map((c) => c.close()));
    },
  };
};

// Each poll's report goes where the service's go: the health service stores it and recomputes the host's
// aggregate (no lifecycle here to wake).
const refreshMs = values["report-refresh-ms"];
const health = new HealthService({
  database,
  engine: { enqueue: async () => undefined },
  logger: silentLogger,
  ...(refreshMs === undefined ? {} : { config: { unchangedReportRefreshMs: Number(refreshMs) } }),
});
let reports = 0;
let alerts = 0;
const monitor = new BmcMonitor({
  database: database.db,
  bmcAccess: access,
  recordReport: async (machineId, report) => {
    reports += 1;
    alerts += report.alerts.length;
    await health.recordReport(machineId, report);
  },
  logger: silentLogger,
  config: resolveMonitorConfig({ concurrency, jitterMs: 0 }),
  serviceProbes,
});

async function timedPass(label: string): Promise<void> {
  const cpu = process.cpuUsage();
  const statementsBefore = database.statements().statements;
  const result = await monitor.runOnce({ tasks: ["sensors"] });
  const used = process.cpuUsage(cpu);
  const statements = database.statements().statements - statementsBefore;
  const seconds = result.durationMs / 1000;
  const cpuSeconds = (used.user + used.system) / 1e6;
  const polls = result.collections - result.errors;
  console.log(
    `${label}: ${result.machines} BMCs, ${polls} polls, ${result.errors} errors in ${seconds.toFixed(2)} s — ` +
      `${(polls / seconds).toFixed(0)} BMC polls/s, ${((cpuSeconds / polls) * 1000).toFixed(2)} ms of the ` +
      `monitor's CPU per poll (the virtual BMCs run in another process), ` +
      `${(statements / Math.max(polls, 1)).toFixed(1)} database statements per poll`,
  );
}

console.log(`bench:monitor — ${fleet.bmcs.length} virtual BMCs, concurrency ${concurrency}`);
await timedPass("first pass (the fleet makes each BMC's service)");
reports = 0;
await timedPass("second pass");
console.log(`reports recorded: ${reports}, BmcSensor alerts: ${alerts}`);
// With --expose-gc, what is really live: a full collection first.
(globalThis as { gc?: () => void }).gc?.();
const memory = process.memoryUsage();
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
console.log(
  `monitor process: heap used ${mb(memory.heapUsed)} of ${mb(memory.heapTotal)} MB, buffers ${mb(memory.arrayBuffers)} MB, RSS now ${mb(memory.rss)} MB, peak ` +
    `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (${databaseUrl ? "PostgreSQL" : "in-memory PGlite in the process"}; ` +
    `V8 heap limit ${mb(getHeapStatistics().heap_size_limit)} MB)`,
);
fleetProcess.send("stats");
console.log(
  `fleet: ${JSON.stringify((await nextMessage<FleetMessage, "stats">(fleetProcess, "stats")).stats)}`,
);
await monitor.stop();
if (databaseUrl) await database.db.schema.dropSchema(schema).ifExists().cascade().execute();
await database.close();
fleetProcess.send("stop");
await nextMessage<FleetMessage, "stopped">(fleetProcess, "stopped");
