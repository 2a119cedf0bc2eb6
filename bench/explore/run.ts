/**
 * Site explorer benchmark (never part of `npm test`; nothing is asserted, it prints figures):
 *
 *   npm run bench:explore -- [--bmcs N] [--concurrency C] [--per-bmc M] [--no-rotate] [--auth basic|session]
 *                            [--max-ingestions K] [--anomalies kind=count,…] [--seed S]
 *                            [--database-url URL | --postgres] [--timeout-s T] [--json]
 *
 * Serves N virtual BMCs (`@racksmith/simulator` fleet, hosts with one BlueField DPU each), starts the real
 * service (inventory + site explorer, every vendor driver loaded as a plugin) on in-memory PGlite or on
 * PostgreSQL in a fresh schema, registers the fleet through REST (expected machines, DHCP discoveries), asks
 * for one run and times it: endpoints/s, requests/s the BMCs served, p50/p99 per-endpoint latency, CPU,
 * peak RSS. The fleet runs in the same process, so CPU and RSS are the explorer's plus the fleet's.
 */
import { randomUUID } from "node:crypto";
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import {
  type EndpointSummary,
  loadConfig,
  type ManagedHostView,
  openDatabase,
  type RunningService,
  startService,
} from "@racksmith/server";
import {
  ANOMALY_KINDS,
  type AnomalyKind,
  type Fleet,
  generateScenario,
  startFleet,
} from "@racksmith/simulator";
import { sql } from "kysely";
import { call, registerFleet, send } from "./register.js";
import { prepareSite, type Site } from "./site.js";
import { countBy, percentile, round } from "./stats.js";
import { RunWatcher } from "./watcher.js";

const USAGE =
  "usage: npm run bench:explore -- [--bmcs N] [--concurrency C] [--per-bmc M] [--no-rotate] [--auth basic|session] [--max-ingestions K] [--anomalies kind=count,...] [--seed S] [--database-url URL | --postgres] [--timeout-s T] [--json]";

/** siteExplorer defaults (packages/server/src/explorer/configSchema.ts), so the figures are production's. */
const DEFAULT_CONCURRENCY = 30;
const DEFAULT_PER_BMC = 4;

interface Options {
  bmcs: number;
  concurrency: number;
  perBmc: number;
  rotate: boolean;
  auth: "basic" | "session";
  maxIngestions: number | undefined;
  anomalies: Partial<Record<AnomalyKind, number>>;
  seed: number;
  databaseUrl: string | undefined;
  timeoutMs: number;
  json: boolean;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      bmcs: { type: "string", default: "1000" },
      concurrency: { type: "string", default: String(DEFAULT_CONCURRENCY) },
      "per-bmc": { type: "string", default: String(DEFAULT_PER_BMC) },
      "no-rotate": { type: "boolean", default: false },
      auth: { type: "string", default: "basic" },
      "max-ingestions": { type: "string" },
      anomalies: { type: "string", default: "" },
      seed: { type: "string", default: "1" },
      "database-url": { type: "string" },
      postgres: { type: "boolean", default: false },
      "timeout-s": { type: "string", default: "1800" },
      json: { type: "boolean", default: false },
    },
  });
  const count = (name: keyof typeof values, min: number): number => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < min) usage(`--${name} must be an integer >= ${min}`);
    return value;
  };
  if (values.auth !== "basic" && values.auth !== "session") usage("--auth must be basic or session");
  let databaseUrl = values["database-url"];
  if (values.postgres && !databaseUrl) {
    databaseUrl = process.env.RACKSMITH_TEST_DATABASE_URL;
    if (!databaseUrl) usage("--postgres takes its URL from RACKSMITH_TEST_DATABASE_URL, which is not set");
  }
  return {
    bmcs: count("bmcs", 2),
    concurrency: count("concurrency", 1),
    perBmc: count("per-bmc", 1),
    rotate: !values["no-rotate"],
    auth: values.auth,
    maxIngestions: values["max-ingestions"] === undefined ? undefined : count("max-ingestions", 0),
    anomalies: parseAnomalies(values.anomalies ?? ""),
    seed: count("seed", 0),
    databaseUrl,
    timeoutMs: count("timeout-s", 1) * 1000,
    json: values.json ?? false,
  };
}

/** `slow=2,unreachable=1` (kinds of the fleet scenario's `anomalies`). */
function parseAnomalies(text: string): Partial<Record<AnomalyKind, number>> {
  const anomalies: Partial<Record<AnomalyKind, number>> = {};
  for (const part of text.split(",").filter((p) => p.trim())) {
    const [kind = "", value = ""] = part.split("=").map((s) => s.trim());
    const n = Number(value);
    if (!(ANOMALY_KINDS as readonly string[]).includes(kind) || !Number.isInteger(n) || n < 1) {
      usage(`--anomalies: "${part}" is not kind=count with kind one of ${ANOMALY_KINDS.join(", ")}`);
    }
    anomalies[kind as AnomalyKind] = n;
  }
  return anomalies;
}

function usage(problem: string): never {
  process.stderr.write(`${problem}\n${USAGE}\n`);
  process.exit(2);
}

interface Pass {
  /** Epoch ms. */
  requestedAt: number;
  firstStart: number;
  lastEnd: number;
  runEnd: number;
  requests: number;
  cpuMs: number;
  rssBeforeMb: number;
}

/** Set on SIGINT/SIGTERM: the cleanup then ends the process, and what fails meanwhile is expected. */
let interrupted = false;

async function main(): Promise<void> {
  const options = parseOptions();
  // Workspace plugins (and the fleet's vendor behaviors) load from their TypeScript sources, as in tests.
  process.env.RACKSMITH_PLUGIN_CONDITIONS ??= "@racksmith/source";
  const began = Date.now();
  const hosts = Math.ceil(options.bmcs / 2);
  const schema = options.databaseUrl
    ? `bench_explore_${randomUUID().replace(/-/g, "").slice(0, 12)}`
    : undefined;
  const watcher = new RunWatcher();
  let fleet: Fleet | undefined;
  let site: Site | undefined;
  let service: RunningService | undefined;
  const cleanup = async (): Promise<void> => {
    // The fleet first: an interrupted run's remaining explorations then fail at once instead of finishing.
    await fleet?.stop().catch(() => undefined);
    await service?.stop().catch((error: unknown) => warn(`stopping the service: ${String(error)}`));
    if (options.databaseUrl && schema) await dropSchema(options.databaseUrl, schema);
    site?.remove();
  };
  process.once("exit", () => site?.remove());
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      interrupted = true;
      warn(`${signal}: cleaning up`);
      const giveUp = new Promise((resolve) =>
        setTimeout(() => {
          if (schema) warn(`cleanup timed out; schema ${schema} may be left: DROP SCHEMA ${schema} CASCADE`);
          resolve(undefined);
        }, 30_000),
      );
      void Promise.race([cleanup(), giveUp]).finally(() => process.exit(130));
    });
  }

  try {
    progress(options, `starting a fleet of ${hosts} hosts with a DPU each`);
    fleet = await startFleet({
      scenario: generateScenario({
        hosts,
        seed: options.seed,
        anomalies: options.anomalies,
        ...(options.bmcs > 60_000 ? { addressPool: "10.64.0.0/10" } : {}),
      }),
    });
    const bmcs = fleet.bmcs.length;
    site = await prepareSite({
      fleetUrl: fleet.url,
      factoryDefaults: fleet.factoryDefaults,
      databaseUrl: options.databaseUrl,
      schema,
      bmcs,
      concurrency: options.concurrency,
      perBmc: options.perBmc,
      auth: options.auth,
      rotate: options.rotate,
      maxIngestions: options.maxIngestions ?? hosts,
      underlayPool: bmcs > 60_000 ? "10.64.0.0/10" : undefined,
    });

    progress(options, `starting the service (${options.databaseUrl ? "PostgreSQL" : "in-memory PGlite"})`);
    const env = { ...process.env };
    // The URL is in the config (PostgreSQL) or must not be used at all (PGlite).
    delete env.RACKSMITH_DATABASE_URL;
    service = await startService({
      config: loadConfig({ file: site.configFile }),
      logger: watcher,
      env,
      inMemoryDatabase: !options.databaseUrl,
    });
    const base = { url: `http://127.0.0.1:${service.http.port}`, token: service.adminToken ?? "" };
    // The loop runs once right after start, with nothing registered yet; then only when asked.
    await watcher.waitForRun(1, 30_000, "the run at start");

    progress(
      options,
      `registering ${fleet.expectedMachines.length} expected machines and ${bmcs} DHCP discoveries`,
    );
    const registering = Date.now();
    const registration = await registerFleet(base, fleet);
    const registerMs = Date.now() - registering;

    progress(options, `exploring ${bmcs} BMCs`);
    const before = fleet.stats;
    const cpuBefore = process.cpuUsage();
    const rssBeforeMb = Math.round(process.memoryUsage().rss / 1024 / 1024);
    const requestedAt = Date.now();
    // A re-explore asks the lock holder for a run soon (~200 ms): it explores every endpoint (budget = N).
    await call(
      base,
      "POST",
      `/api/v1/site-explorer/endpoints/${encodeURIComponent(registration.firstAddress)}/re-explore`,
    );
    const end = await watcher.waitForRun(2, options.timeoutMs, "the exploration pass");
    if (interrupted) return;
    const cpu = process.cpuUsage(cpuBefore);
    const after = fleet.stats;
    if (end.failure) warn(`the run failed: ${end.failure}`);

    const { endpoints } = await call<{ endpoints: EndpointSummary[] }>(
      base,
      "GET",
      "/api/v1/site-explorer/endpoints",
    );
    const { managedHosts } = await call<{ managedHosts: ManagedHostView[] }>(
      base,
      "GET",
      "/api/v1/site-explorer/managed-hosts",
    );
    const metrics = await send(base, "GET", "/metrics");
    const explored = endpoints.filter((e) => e.lastExploredAt && Date.parse(e.lastExploredAt) >= requestedAt);
    const starts = explored.map((e) => Date.parse(e.lastExploredAt ?? ""));
    const ends = explored.map((e) => Date.parse(e.lastExploredAt ?? "") + (e.latencyMs ?? 0));
    const pass: Pass = {
      requestedAt,
      firstStart: starts.reduce((a, b) => Math.min(a, b), end.at),
      lastEnd: ends.reduce((a, b) => Math.max(a, b), requestedAt),
      runEnd: end.at,
      requests: after.total - before.total,
      cpuMs: (cpu.user + cpu.system) / 1000,
      rssBeforeMb,
    };
    const usage = process.resourceUsage();
    report(options, {
      bmcs,
      hosts: fleet.bmcs.filter((b) => b.kind === "host").length,
      dpus: fleet.bmcs.filter((b) => b.kind === "dpu").length,
      registration: { ...registration, ms: registerMs },
      database: service.database.description,
      databaseKind: service.database.kind,
      schema,
      pass,
      endpoints,
      explored,
      managedHosts,
      summary: end.summary,
      rotations: metricValue(metrics, "racksmith_site_explorer_credential_rotations_total"),
      fleetUnknownBmc: after.unknownBmc - before.unknownBmc,
      peakRssMb: Math.round(usage.maxRSS / 1024),
      totalMs: Date.now() - began,
      watcher,
    });
  } finally {
    await cleanup();
  }
}

async function dropSchema(url: string, schema: string): Promise<void> {
  try {
    const database = await openDatabase({ url });
    try {
      await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(database.db);
    } finally {
      await database.close();
    }
  } catch (error) {
    warn(`could not drop schema ${schema}: ${(error as Error).message}`);
  }
}

function metricValue(text: string, name: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

interface Figures {
  bmcs: number;
  hosts: number;
  dpus: number;
  registration: { expectedMachines: number; discoveries: number; ms: number };
  database: string;
  databaseKind: string;
  schema: string | undefined;
  pass: Pass;
  endpoints: EndpointSummary[];
  explored: EndpointSummary[];
  managedHosts: ManagedHostView[];
  summary:
    | { explored: number; failed: number; ingested: number; waiting: number; rejected: number }
    | undefined;
  rotations: number | undefined;
  fleetUnknownBmc: number;
  peakRssMb: number;
  totalMs: number;
  watcher: RunWatcher;
}

function report(options: Options, f: Figures): void {
  const { pass } = f;
  const exploreMs = Math.max(1, pass.lastEnd - pass.firstStart);
  const latencies = f.explored.map((e) => e.latencyMs ?? 0);
  const failed = f.explored.filter((e) => e.lastError);
  const errors = countBy(failed, (e) => e.lastError?.code ?? "?");
  const verdicts = countBy(f.managedHosts, (h) => (h.code ? `${h.status}/${h.code}` : h.status));
  const anomalies = Object.entries(options.anomalies).map(([kind, n]) => `${kind}=${n}`);
  const figures = {
    config: {
      bmcs: f.bmcs,
      hosts: f.hosts,
      dpus: f.dpus,
      concurrency: options.concurrency,
      perBmcCap: options.perBmc,
      budget: f.bmcs,
      auth: options.auth,
      rotation: options.rotate,
      maxIngestionsPerRun: options.maxIngestions ?? f.hosts,
      anomalies: anomalies.join(",") || "none",
      seed: options.seed,
      database: f.databaseKind,
      databaseWhere: f.database,
      schema: f.schema ?? null,
      cpus: availableParallelism(),
      node: process.version,
    },
    endpoints: f.endpoints.length,
    explored: f.explored.length,
    notExplored: f.endpoints.length - f.explored.length,
    failed: failed.length,
    errors: Object.fromEntries(errors),
    errorExamples: Object.fromEntries(
      errors.map(([code]) => {
        const example = failed.find((e) => e.lastError?.code === code);
        return [
          code,
          `${example?.address} (${example?.vendor ?? "?"}): ${example?.lastError?.message ?? ""}`,
        ];
      }),
    ),
    endpointsPerSecond: round(f.explored.length / (exploreMs / 1000)),
    requests: pass.requests,
    requestsPerEndpoint: round(pass.requests / Math.max(1, f.explored.length)),
    requestsPerSecond: Math.round(pass.requests / (exploreMs / 1000)),
    fleetUnknownBmc: f.fleetUnknownBmc,
    latencyMs: {
      p50: percentile(latencies, 50),
      p90: percentile(latencies, 90),
      p99: percentile(latencies, 99),
      max: percentile(latencies, 100),
    },
    rotations: f.rotations ?? f.watcher.rotations,
    run: f.summary ?? null,
    verdicts: Object.fromEntries(verdicts),
    cpuSeconds: round(pass.cpuMs / 1000),
    cpuPercentOfOneCore: Math.round((pass.cpuMs / Math.max(1, pass.runEnd - pass.requestedAt)) * 100),
    rssBeforePassMb: pass.rssBeforeMb,
    peakRssMb: f.peakRssMb,
    timesMs: {
      registration: f.registration.ms,
      requestToFirstExploration: pass.firstStart - pass.requestedAt,
      exploring: exploreMs,
      pairingAndIngestion: Math.max(0, pass.runEnd - pass.lastEnd),
      run: pass.runEnd - pass.requestedAt,
      total: f.totalMs,
    },
    serviceWarnings: f.watcher.warnings,
    serviceErrors: f.watcher.errors,
  };
  if (options.json) {
    process.stdout.write(`${JSON.stringify(figures)}\n`);
    return;
  }
  const c = figures.config;
  const t = figures.timesMs;
  const rows: Array<[string, string]> = [
    [
      "fleet",
      `${c.bmcs} virtual BMCs (${c.hosts} hosts + ${c.dpus} DPUs), anomalies ${c.anomalies}, seed ${c.seed}`,
    ],
    ["database", `${c.database} (${c.databaseWhere}${c.schema ? `, schema ${c.schema}` : ""})`],
    [
      "explorer config",
      `concurrency ${c.concurrency}, per-BMC cap ${c.perBmcCap}, budget ${c.budget}, auth ${c.auth}, rotation ${c.rotation ? "on" : "off"}, maxIngestionsPerRun ${c.maxIngestionsPerRun}`,
    ],
    ["machine", `${c.cpus} CPUs, node ${c.node}; fleet and service in one process`],
    [
      "endpoints explored",
      `${figures.explored} of ${figures.endpoints}, ${figures.failed} with an error${errors.length ? ` (${errors.map(([code, n]) => `${code} ${n}`).join(", ")})` : ""}`,
    ],
    ...Object.entries(figures.errorExamples).map(([code, example]): [string, string] => [
      `  e.g. ${code}`,
      example.length > 300 ? `${example.slice(0, 300)}…` : example,
    ]),
    ["endpoints/s", String(figures.endpointsPerSecond)],
    [
      "requests/s",
      `${figures.requestsPerSecond} (${figures.requests} requests served, ${figures.requestsPerEndpoint} per endpoint)`,
    ],
    [
      "latency per endpoint",
      `p50 ${figures.latencyMs.p50} ms, p90 ${figures.latencyMs.p90} ms, p99 ${figures.latencyMs.p99} ms, max ${figures.latencyMs.max} ms`,
    ],
    ["rotations", `${figures.rotations} factory passwords rotated to the site password`],
    [
      "run",
      figures.run
        ? `${figures.run.explored} explored, ${figures.run.failed} failed, ${figures.run.ingested} hosts ingested, ${figures.run.waiting} waiting, ${figures.run.rejected} rejected`
        : "failed (see above)",
    ],
    ["host verdicts", verdicts.map(([verdict, n]) => `${verdict} ${n}`).join(", ") || "none"],
    ["CPU", `${figures.cpuSeconds} s during the run (${figures.cpuPercentOfOneCore}% of one core)`],
    ["RSS", `${figures.rssBeforePassMb} MB before the pass, peak ${figures.peakRssMb} MB (maxRSS)`],
    [
      "time",
      `exploring ${t.exploring} ms; run ${t.run} ms = request→first exploration ${t.requestToFirstExploration} + exploring + pairing/ingestion ${t.pairingAndIngestion}; registration ${t.registration} ms; total ${t.total} ms`,
    ],
  ];
  if (figures.serviceWarnings || figures.serviceErrors || figures.fleetUnknownBmc) {
    rows.push([
      "problems",
      `${figures.serviceWarnings} service warnings, ${figures.serviceErrors} errors logged, ${figures.fleetUnknownBmc} requests for no BMC`,
    ]);
  }
  const width = Math.max(...rows.map(([label]) => label.length));
  for (const [label, value] of rows) process.stdout.write(`${label.padEnd(width)}  ${value}\n`);
}

function progress(options: Options, message: string): void {
  if (!options.json) process.stderr.write(`… ${message}\n`);
}

function warn(message: string): void {
  process.stderr.write(`! ${message}\n`);
}

try {
  await main();
} catch (error) {
  if (!interrupted) throw error;
}
