/**
 * Fleet lifecycle benchmark (never part of `npm test`; nothing is asserted, it prints figures):
 *
 *   npm run bench:fleet -- [--hosts N] [--database-url URL] [--pool-size S] [--poll-ms P] [--agent-idle-close-ms I] [--timeout-s T]
 *                          [--steady-s S [--steady-profile FILE]] [--json]
 *
 * (`--agent-idle-close-ms`: the agent listener's server.agentIdleCloseMs; default the service's 60 s, or 10 s when
 * agents poll less often than every 60 s. `--pool-size`: PostgreSQL's database.poolSize; default the service's 10.)
 *
 * A whole simulated site in two processes — this one runs the service (every vendor driver loaded as a plugin)
 * on embedded PGlite or PostgreSQL; fleetProcess.ts runs the virtual BMCs (`@racksmith/simulator` fleet, one
 * BlueField DPU per host), a DPU and host agent per machine and the registration — timed from registration
 * until every host is Ready: time to all-Ready, transitions/s, Redfish requests/s the BMCs served, agent
 * calls/s, and the CPU seconds and peak RSS of each process.
 */
import { fork } from "node:child_process";
import { readdirSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { silentLogger } from "@racksmith/core";
import { loadConfig, openDatabase, startService } from "@racksmith/server";
import {
  countByState,
  fastTimings,
  listHostStates,
  transitionCount,
  writeSimulatedSite,
} from "@racksmith/simulator";
import { nextMessage } from "../shared/childMessages.js";
import type { FromFleet, ToFleet } from "./fleetProcess.js";

// tsx maps every stack trace to the TypeScript sources, which the built service does not do (every closed
// connection makes an error whose stack Node reads): the bench runs as the built code would.
process.setSourceMapsEnabled(false);
const { values } = parseArgs({
  options: {
    hosts: { type: "string", default: "1000" },
    "database-url": { type: "string" },
    "pool-size": { type: "string" },
    "poll-ms": { type: "string" },
    // The agent listener's server.agentIdleCloseMs (see agentIdleCloseMs below).
    "agent-idle-close-ms": { type: "string" },
    "timeout-s": { type: "string", default: "3600" },
    // Seconds to keep the Ready fleet running after the last host is Ready, measuring what it costs idle.
    "steady-s": { type: "string", default: "0" },
    // A CPU profile of the service over the steady window, written to this .cpuprofile file.
    "steady-profile": { type: "string" },
    json: { type: "boolean", default: false },
  },
});
const hosts = Number(values.hosts);
// Thousands of agents polling every 250 ms would ask for more calls than one process serves: scale the poll.
const pollMs = Number(values["poll-ms"] ?? Math.max(250, hosts * 10));
const timeoutMs = Number(values["timeout-s"]) * 1000;
const databaseUrl = values["database-url"];
const poolSize = values["pool-size"] === undefined ? undefined : Number(values["pool-size"]);
// Agents polling less often than the listener's idle close (60 s) connect anew at every poll anyway: holding each
// connection for the idle close is memory nobody reuses (at 10,000 hosts, 20,000 agents polling every 100 s keep
// about 12,000 connections open). Past that, 10 s: enough for the calls of an agent's boot to share one.
const agentIdleCloseMs =
  values["agent-idle-close-ms"] === undefined
    ? pollMs > 60_000
      ? 10_000
      : undefined
    : Number(values["agent-idle-close-ms"]);

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
// The drivers named in racksmith.yaml load from their TypeScript sources: no build needed (the fleet process
// inherits it for the vendors' behaviours).
process.env.RACKSMITH_PLUGIN_CONDITIONS ??= "@racksmith/source";
const dir = await mkdtemp(join(tmpdir(), "racksmith-bench-fleet-"));
const cpuStart = process.cpuUsage();
const started = Date.now();

const fleetProcess = fork(
  fileURLToPath(new URL("./fleetProcess.ts", import.meta.url)),
  [String(hosts), String(pollMs)],
  {
    // A CPU profile of the bench (`node --cpu-prof …`) profiles the fleet process too. Its young objects get room
    // to die young (fewer scavenges, less promoted): the simulation's memory is not the service's.
    execArgv: [
      "--max-semi-space-size=64",
      "--conditions=@racksmith/source",
      "--import",
      "tsx",
      ...process.execArgv.filter((flag) => flag.startsWith("--cpu-prof")),
    ],
  },
);
const fleet = await nextMessage<FromFleet, "fleet">(fleetProcess, "fleet");
const schema = `bench_fleet_${process.pid}`;
const fast = fastTimings(hosts);
const configFile = await writeSimulatedSite({
  dir,
  fleet,
  base: loadConfig({ file: join(root, "racksmith.yaml") }),
  sections: {
    database: databaseUrl
      ? { url: databaseUrl, schema, ...(poolSize === undefined ? {} : { poolSize }) }
      : { dataDir: "data" },
    server: {
      http: "127.0.0.1:0",
      grpc: "127.0.0.1:0",
      ...(agentIdleCloseMs === undefined ? {} : { agentIdleCloseMs }),
    },
    ...fast,
  },
});
const service = await startService({
  config: loadConfig({ file: configFile }),
  logger: silentLogger,
  env: {},
});
const url = `http://${service.http.host}:${service.http.port}`;
// Statements waiting for one of the pool's connections (PostgreSQL), read every 100 ms from the
// service's start: the mean and the peak.
const poolWaits = { samples: 0, sum: 0, peak: 0 };
// The service's memory at its largest resident size, read every second: how much of it is V8's heap.
let memoryAtPeak = process.memoryUsage();
const memorySampler = setInterval(() => {
  const now = process.memoryUsage();
  if (now.rss > memoryAtPeak.rss) memoryAtPeak = now;
}, 1_000);
const poolSampler = setInterval(() => {
  const waiting = service.database.connections?.().waiting;
  if (waiting === undefined) return;
  poolWaits.samples += 1;
  poolWaits.sum += waiting;
  poolWaits.peak = Math.max(poolWaits.peak, waiting);
}, 100);
tell({
  kind: "service",
  url,
  grpcAddress: `${service.grpc.host}:${service.grpc.port}`,
  token: service.adminToken ?? "",
});
const atRegistration = await nextMessage<FromFleet, "registered">(fleetProcess, "registered");
const registered = Date.now();
let last = "";
let ready = 0;
// Reading every host's state is the bench's own load on the service: every 2 s, and less often for large fleets.
const statusEveryMs = Math.max(2_000, hosts * 2);
// The service's file descriptors (the fleet's BMC and agent connections are the other process's).
const openFds = () => readdirSync("/proc/self/fd").length;
let peakOpenFds = 0;
for (;;) {
  const states = await listHostStates(service);
  ready = states.filter((s) => s.state.state === "ready").length;
  const fds = openFds();
  peakOpenFds = Math.max(peakOpenFds, fds);
  const line = JSON.stringify(countByState(states));
  if (line !== last && !values.json)
    console.error(`${((Date.now() - registered) / 1000).toFixed(0).padStart(5)} s ${fds} fds ${line}`);
  last = line;
  if (ready === hosts || Date.now() - registered > timeoutMs) break;
  await new Promise((resolve) => setTimeout(resolve, statusEveryMs));
}
const elapsedS = (Date.now() - registered) / 1000;
clearInterval(poolSampler);
clearInterval(memorySampler);
// The kernel's high-water mark as the last host became Ready, before the bench's own reads below (every host's
// state, a /metrics scrape read in this process) add theirs.
const peakRssMbToAllReady = Math.round(process.resourceUsage().maxRSS / 1024);
const states = await listHostStates(service);
// Hosts that did not make it by the timeout, grouped by what they wait for.
const stuck = new Map<string, number>();
for (const host of states.filter((s) => s.state.state !== "ready")) {
  const why = `${host.stateLabel}: ${(host.outcome?.reason ?? host.outcome?.error?.message ?? host.outcome?.kind ?? "not run").replace(/[0-9a-f]{24}|\d{4}-\d\d-\d\dT[\d:.]+Z|\d+/g, "#")}`;
  stuck.set(why, (stuck.get(why) ?? 0) + 1);
}
const transitions = transitionCount(states);
const counters = await serviceFigures(url);
const cpu = process.cpuUsage(cpuStart);
tell({ kind: "figures" });
const fleetFigures = (await nextMessage<FromFleet, "figures">(fleetProcess, "figures")).figures;
const figures = {
  hosts,
  database: databaseUrl ? "postgres" : "pglite",
  dbPoolSize: databaseUrl ? (poolSize ?? "default") : undefined,
  readyHosts: ready,
  startupSeconds: Math.round((registered - started) / 100) / 10,
  secondsToAllReady: Math.round(elapsedS * 10) / 10,
  transitions,
  transitionsPerSecond: Math.round(transitions / elapsedS),
  redfishRequests: fleetFigures.redfishRequests,
  // Rates from registration on, as the time is counted.
  redfishRequestsPerSecond: Math.round(
    (fleetFigures.redfishRequests - atRegistration.redfishRequests) / elapsedS,
  ),
  agentCallsPerSecond: Math.round((fleetFigures.agentCalls - atRegistration.agentCalls) / elapsedS),
  agentPollMs: pollMs,
  agentTlsFullHandshakes: fleetFigures.agentTlsHandshakes.full,
  agentTlsResumedHandshakes: fleetFigures.agentTlsHandshakes.resumed,
  agentIdleCloseMs: agentIdleCloseMs ?? "default",
  // The service's process (embedded PGlite's thread included) and the fleet's, apart.
  cpuSeconds: Math.round((cpu.user + cpu.system) / 1e5) / 10,
  peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  peakRssMbToAllReady,
  // At the largest resident size seen (every second): V8's heap, committed and used, and what lies outside it
  // but is counted (Buffers and other external memory; the rest of the RSS is native: sockets, TLS, code).
  peakRssBreakdownMb: Object.fromEntries(
    (["rss", "heapTotal", "heapUsed", "external"] as const).map((key) => [
      key,
      Math.round(memoryAtPeak[key] / 2 ** 20),
    ]),
  ),
  fleetCpuSeconds: fleetFigures.cpuSeconds,
  fleetPeakRssMb: fleetFigures.peakRssMb,
  peakOpenFds,
  // Reboots the lifecycle ordered: what states require, and retries of waits that saw no progress.
  rebootsRequired: counters.reboots.required ?? 0,
  rebootRetries: counters.reboots.retry ?? 0,
  maxRetryRebootsPerMachine: counters.status.max_retries_per_machine ?? 0,
  rebootsHeldByCaps: counters.reboots.held ?? 0,
  dbStatementsPerTransition: Math.round(counters.statements / Math.max(transitions, 1)),
  dbMsPerTransition: Math.round((counters.statementSeconds * 1000) / Math.max(transitions, 1)),
  dbPoolWaitingMean: poolWaits.samples ? Math.round(poolWaits.sum / poolWaits.samples) : undefined,
  dbPoolWaitingPeak: poolWaits.samples ? poolWaits.peak : undefined,
  // One exploration per BMC brings a host to ingestion; more are re-explorations (asked for, failed or periodic).
  explorationsPerBmc:
    Math.round((((counters.explorations.ok ?? 0) + (counters.explorations.error ?? 0)) / (2 * hosts)) * 100) /
    100,
  explorationErrors: counters.explorations.error ?? 0,
  handlerRunsPerHost: Math.round((counters.handlerRuns.total / hosts) * 10) / 10,
  // Where the engine's runs went: the busiest states, with their outcomes (runs per host, mean ms per run).
  busiestStates: counters.handlerRuns.busiest,
  metricsSeries: counters.metricsSeries,
  metricsMb: counters.metricsMb,
  notReady: Object.fromEntries(stuck),
  // After every figure above was read, so none of them counts the window.
  steady:
    ready === hosts && Number(values["steady-s"]) > 0
      ? await steadyCost(Number(values["steady-s"]))
      : undefined,
};
// Agents first, so none reports into a closing service.
tell({ kind: "stop" });
await nextMessage<FromFleet, "stopped">(fleetProcess, "stopped");
await service.stop();
if (databaseUrl) {
  const database = await openDatabase({ url: databaseUrl });
  await database.db.schema.dropSchema(schema).ifExists().cascade().execute();
  await database.close();
}
await rm(dir, { recursive: true, force: true });
console.log(values.json ? JSON.stringify(figures) : figures);
process.exit(ready === hosts ? 0 : 1);

/** The service's own counters from /metrics: reboots by kind, reboot status, database statements and time. */
async function serviceFigures(url: string) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const labelled = (metric: string, label: string) =>
    Object.fromEntries(
      [...text.matchAll(new RegExp(`^${metric}\\{${label}="(\\w+)"\\} ([\\d.e+-]+)$`, "gm"))].map(
        ([, name, value]) => [name as string, Number(value)],
      ),
    ) as Record<string, number>;
  const plain = (metric: string) => Number(new RegExp(`^${metric} ([\\d.e+-]+)$`, "m").exec(text)?.[1] ?? 0);
  return {
    // The size of one scrape: the service's series (the monitor's are per BMC sensor) and the text's bytes.
    metricsSeries: text.split("\n").filter((line) => line !== "" && !line.startsWith("#")).length,
    metricsMb: Math.round(Buffer.byteLength(text) / 1e5) / 10,
    handlerRuns: handlerRuns(text),
    explorations: labelled("racksmith_site_explorer_endpoints_explored_total", "result"),
    reboots: labelled("racksmith_lifecycle_reboots_total", "kind"),
    status: labelled("racksmith_lifecycle_reboot_status", "figure"),
    statements: plain("racksmith_db_statements_total"),
    statementSeconds: plain("racksmith_db_statement_seconds_total"),
    monitorCollections: Object.values(
      labelled("racksmith_bmc_collection_duration_seconds_count", "kind"),
    ).reduce((sum, n) => sum + n, 0),
  };
}

/**
 * What the Ready fleet costs per second when nothing moves: agents' polls, the monitor, the engine's periodic runs
 * — the background every host's bring-up shares the machine with, over `seconds` after the last host is Ready.
 */
async function steadyCost(seconds: number) {
  const sample = async () => {
    tell({ kind: "figures" });
    const fleetNow = (await nextMessage<FromFleet, "figures">(fleetProcess, "figures")).figures;
    return { at: Date.now(), cpu: process.cpuUsage(), fleet: fleetNow, service: await serviceFigures(url) };
  };
  const profile = values["steady-profile"];
  const session = profile ? new Session() : undefined;
  session?.connect();
  await session?.post("Profiler.enable");
  await session?.post("Profiler.start");
  const from = await sample();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const to = await sample();
  if (session && profile) {
    await writeFile(profile, JSON.stringify((await session.post("Profiler.stop")).profile));
    session.disconnect();
  }
  const s = (to.at - from.at) / 1000;
  const perSecond = (n: number) => Math.round((n / s) * 10) / 10;
  const cpuOf = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;
  return {
    seconds: Math.round(s),
    serviceCpuPerSecond: Math.round(((cpuOf(to.cpu) - cpuOf(from.cpu)) / s) * 100) / 100,
    fleetCpuPerSecond: Math.round(((to.fleet.cpuSeconds - from.fleet.cpuSeconds) / s) * 100) / 100,
    redfishRequestsPerSecond: perSecond(to.fleet.redfishRequests - from.fleet.redfishRequests),
    agentCallsPerSecond: perSecond(to.fleet.agentCalls - from.fleet.agentCalls),
    handlerRunsPerSecond: perSecond(to.service.handlerRuns.total - from.service.handlerRuns.total),
    monitorCollectionsPerSecond: perSecond(to.service.monitorCollections - from.service.monitorCollections),
    statementsPerSecond: perSecond(to.service.statements - from.service.statements),
  };
}

function tell(message: ToFleet): void {
  fleetProcess.send(message);
}

/**
 * The engine's handler runs from its duration histogram: in all, and the ten states (by object type and outcome)
 * with the most runs, as `type/state/outcome: "runs per host · mean ms"`.
 */
function handlerRuns(metricsText: string): { total: number; busiest: Record<string, string> } {
  const runs = new Map<string, { count: number; seconds: number }>();
  const series = /^racksmith_state_handler_duration_seconds_(count|sum)\{([^}]*)\} ([\d.e+-]+)$/gm;
  for (const [, kind, labels = "", value] of metricsText.matchAll(series)) {
    const label = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(labels)?.[1] ?? "?";
    const key = `${label("object_type")}/${label("state")}/${label("outcome")}`;
    const entry = runs.get(key) ?? { count: 0, seconds: 0 };
    if (kind === "count") entry.count = Number(value);
    else entry.seconds = Number(value);
    runs.set(key, entry);
  }
  const busiest = [...runs].sort(([, a], [, b]) => b.count - a.count).slice(0, 10);
  return {
    total: [...runs.values()].reduce((sum, entry) => sum + entry.count, 0),
    busiest: Object.fromEntries(
      busiest.map(([key, { count, seconds }]) => [
        key,
        `${(count / hosts).toFixed(2)} per host · ${Math.round((seconds * 1000) / Math.max(count, 1))} ms`,
      ]),
    ),
  };
}
