/**
 * BMC monitor benchmark: sensor passes of `BmcMonitor.runOnce` over N virtual BMCs served by another process, so
 * the CPU and memory printed are the monitor's own (see README.md). A measurement, never part of `npm test`; it
 * asserts nothing.
 */
import { fork } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { getHeapStatistics } from "node:v8";
import { redfishStandardDriver, silentLogger } from "@racksmith/core";
import { RedfishClient } from "@racksmith/core/redfish";
import {
  BmcMonitor,
  createBmcAccess,
  FileCredentialStore,
  HealthService,
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
    // Then passes one minute apart, as the service's monitor runs them, with the RSS sampled each second.
    "steady-passes": { type: "string", default: "0" },
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

// The service's BMC access reuses the driver the explorer chose: the fleet process selects each BMC's, untimed
// and outside this process (the selection is the explorer's work; here it would make the peak RSS its own), and
// it is recorded where the explorer records it.
fleetProcess.send("select");
const selected = (await nextMessage<FleetMessage, "selected">(fleetProcess, "selected")).drivers;
const byId = new Map<string, FleetBmcInfo>(fleet.bmcs.map((bmc) => [bmc.id, bmc]));
const explored = Object.entries(selected).map(([id, driver]) => {
  const now = new Date();
  return { address: byId.get(id)?.address ?? "", driver, findings: "[]", created_at: now, updated_at: now };
});
for (let start = 0; start < explored.length; start += 1_000) {
  await database.db
    .insertInto("explored_endpoints")
    .values(explored.slice(start, start + 1_000))
    .execute();
}

// Each BMC's login in a sealed credential store on disk, as the service keeps them.
const secrets = await mkdtemp(join(tmpdir(), "bench-monitor-"));
const credentials = new FileCredentialStore({
  directory: join(secrets, "credentials"),
  keyFile: join(secrets, "credentials.key"),
});
for (let start = 0; start < fleet.bmcs.length; start += 100) {
  await Promise.all(
    fleet.bmcs
      .slice(start, start + 100)
      .map((bmc) => credentials.set({ kind: "bmc", mac: bmc.mac }, bmc.credentials)),
  );
}

// As the service's monitor (`openMonitorBmcAccess`): the service's BMC access with each BMC's service
// description kept between passes, connections closed with each BMC's poll.
const serviceProbes = new ServiceProbeCache();
const access = createBmcAccess({
  database: database.db,
  connector: (address, login, options) =>
    new RedfishClient({
      address: `http://${address}`,
      connectVia: fleet.url,
      ...(login ? { credentials: login } : {}),
      ...(options?.keepConnections === false ? { keepConnections: false } : {}),
      ...(options?.signal ? { signal: options.signal } : {}),
    }),
  credentials,
  drivers: () => drivers,
  fallback: redfishStandardDriver,
  driverSettings: () => undefined,
  logger: silentLogger,
  probes: serviceProbes,
  keepConnections: false,
});

// Each poll's report goes where the service's go: the health service stores it and recomputes the host's
// aggregate (no lifecycle here to wake).
const refreshMs = values["report-refresh-ms"];
// The third pass runs with the health service's clock moved past the refresh period, as if it came that much later.
let healthClockOffsetMs = 0;
const health = new HealthService({
  clock: () => new Date(Date.now() + healthClockOffsetMs),
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

async function timedPass(label: string): Promise<number> {
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
  return (cpuSeconds / polls) * 1000;
}

/**
 * `count` sensor passes starting one minute apart (the service's default interval, without its jitter), the
 * process's RSS sampled every second: what the monitor holds between and during the passes of a service that
 * runs them each minute, rather than in passes back to back.
 */
async function steadyPasses(count: number): Promise<void> {
  if (count <= 0) return;
  const rssMb = () => process.memoryUsage().rss / 1024 / 1024;
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(rssMb()), 1_000);
  const cpu = process.cpuUsage();
  let polls = 0;
  for (let pass = 0; pass < count; pass++) {
    const started = Date.now();
    const result = await monitor.runOnce({ tasks: ["sensors"] });
    polls += result.collections - result.errors;
    if (pass < count - 1) await new Promise((resolve) => setTimeout(resolve, started + 60_000 - Date.now()));
  }
  clearInterval(sampler);
  const used = process.cpuUsage(cpu);
  console.log(
    `${count} passes a minute apart: ${((used.user + used.system) / 1e3 / Math.max(polls, 1)).toFixed(2)} ms of ` +
      `the monitor's CPU per poll, RSS ${Math.min(...samples).toFixed(0)}–${Math.max(...samples).toFixed(0)} MB ` +
      `(sampled each second), ${rssMb().toFixed(0)} MB at the end`,
  );
}

console.log(`bench:monitor — ${fleet.bmcs.length} virtual BMCs, concurrency ${concurrency}`);
await timedPass("first pass (the fleet makes each BMC's service)");
reports = 0;
const steadyMs = await timedPass("second pass");
// Every stored report is due for its refresh in this pass (as each is once per refresh period).
healthClockOffsetMs = health.config.unchangedReportRefreshMs;
reports = 0;
const refreshPassMs = await timedPass("third pass (a refresh period later: every report refreshed)");
// At the default 60 s sensor interval a BMC's report is refreshed at one poll in refresh ÷ 60 s.
const share = Math.min(1, 60_000 / Math.max(health.config.unchangedReportRefreshMs, 1));
console.log(
  `over a refresh period (${health.config.unchangedReportRefreshMs / 1000} s, polls every 60 s): ` +
    `${((1 - share) * steadyMs + share * refreshPassMs).toFixed(2)} ms of the monitor's CPU per poll on average`,
);
console.log(`reports recorded: ${reports}, BmcSensor alerts: ${alerts}`);
await steadyPasses(Number(values["steady-passes"]));
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
await rm(secrets, { recursive: true, force: true });
fleetProcess.send("stop");
await nextMessage<FleetMessage, "stopped">(fleetProcess, "stopped");
