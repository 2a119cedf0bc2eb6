/**
 * Fleet lifecycle benchmark (never part of `npm test`; nothing is asserted, it prints figures):
 *
 *   npm run bench:fleet -- [--hosts N] [--database-url URL] [--poll-ms P] [--timeout-s T] [--json]
 *
 * A whole simulated site in this process — virtual BMCs (`@racksmith/simulator` fleet, one BlueField DPU per
 * host), the service (every vendor driver loaded as a plugin) on embedded PGlite or PostgreSQL, and a DPU and
 * host agent per machine — timed from registration until every host is Ready: time to all-Ready,
 * transitions/s, Redfish requests/s the BMCs served, agent calls/s, CPU seconds and peak RSS.
 */
import { readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadConfig } from "@racksmith/server";
import { countByState, startSimulatedSite, transitionCount } from "@racksmith/simulator";

const { values } = parseArgs({
  options: {
    hosts: { type: "string", default: "1000" },
    "database-url": { type: "string" },
    "poll-ms": { type: "string" },
    "timeout-s": { type: "string", default: "3600" },
    json: { type: "boolean", default: false },
  },
});
const hosts = Number(values.hosts);
// Thousands of agents polling every 250 ms would ask for more calls than one process serves: scale the poll.
const pollMs = Number(values["poll-ms"] ?? Math.max(250, hosts * 10));
const timeoutMs = Number(values["timeout-s"]) * 1000;

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
// The drivers named in racksmith.yaml load from their TypeScript sources: no build needed.
process.env.RACKSMITH_PLUGIN_CONDITIONS ??= "@racksmith/source";
const dir = await mkdtemp(join(tmpdir(), "racksmith-bench-fleet-"));
const cpuStart = process.cpuUsage();
const started = Date.now();
const site = await startSimulatedSite({
  hosts,
  base: loadConfig({ file: join(root, "racksmith.yaml") }),
  dir,
  ...(values["database-url"] ? { databaseUrl: values["database-url"] } : {}),
  agentTiming: { pollIntervalMs: pollMs, callTimeoutMs: 30_000 },
});
const registered = Date.now();
let last = "";
let ready = 0;
// Fleet, service and agents share this process's file descriptors (every BMC connection counts twice).
const openFds = () => readdirSync("/proc/self/fd").length;
let peakOpenFds = 0;
for (;;) {
  const states = await site.hostStates();
  ready = states.filter((s) => s.state.state === "ready").length;
  const fds = openFds();
  peakOpenFds = Math.max(peakOpenFds, fds);
  const line = JSON.stringify(countByState(states));
  if (line !== last && !values.json)
    console.error(`${((Date.now() - registered) / 1000).toFixed(0).padStart(5)} s ${fds} fds ${line}`);
  last = line;
  if (ready === hosts || Date.now() - registered > timeoutMs) break;
  await new Promise((resolve) => setTimeout(resolve, 2_000));
}
const elapsedS = (Date.now() - registered) / 1000;
const states = await site.hostStates();
// Hosts that did not make it by the timeout, grouped by what they wait for.
const stuck = new Map<string, number>();
for (const host of states.filter((s) => s.state.state !== "ready")) {
  const why = `${host.stateLabel}: ${(host.outcome?.reason ?? host.outcome?.error?.message ?? host.outcome?.kind ?? "not run").replace(/[0-9a-f]{24}|\d{4}-\d\d-\d\dT[\d:.]+Z|\d+/g, "#")}`;
  stuck.set(why, (stuck.get(why) ?? 0) + 1);
}
const transitions = transitionCount(states);
const service = await serviceFigures(site.url);
const cpu = process.cpuUsage(cpuStart);
const agentCalls = Object.values(site.agents.stats.calls).reduce((sum, n) => sum + (n ?? 0), 0);
const figures = {
  hosts,
  database: values["database-url"] ? "postgres" : "pglite",
  readyHosts: ready,
  startupSeconds: Math.round((registered - started) / 100) / 10,
  secondsToAllReady: Math.round(elapsedS * 10) / 10,
  transitions,
  transitionsPerSecond: Math.round(transitions / elapsedS),
  redfishRequests: site.fleet.stats.total,
  redfishRequestsPerSecond: Math.round(site.fleet.stats.total / elapsedS),
  agentCallsPerSecond: Math.round(agentCalls / elapsedS),
  agentPollMs: pollMs,
  cpuSeconds: Math.round((cpu.user + cpu.system) / 1e5) / 10,
  peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  peakOpenFds,
  // Reboots the lifecycle ordered: what states require, and retries of waits that saw no progress.
  rebootsRequired: service.reboots.required ?? 0,
  rebootRetries: service.reboots.retry ?? 0,
  maxRetryRebootsPerMachine: service.status.max_retries_per_machine ?? 0,
  rebootsHeldByCaps: service.reboots.held ?? 0,
  dbStatementsPerTransition: Math.round(service.statements / Math.max(transitions, 1)),
  dbMsPerTransition: Math.round((service.statementSeconds * 1000) / Math.max(transitions, 1)),
  notReady: Object.fromEntries(stuck),
};
await site.stop();
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
    reboots: labelled("racksmith_lifecycle_reboots_total", "kind"),
    status: labelled("racksmith_lifecycle_reboot_status", "figure"),
    statements: plain("racksmith_db_statements_total"),
    statementSeconds: plain("racksmith_db_statement_seconds_total"),
  };
}
