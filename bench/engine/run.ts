/**
 * State engine benchmark (never part of `npm test`):
 *
 *   npm run bench:engine -- --objects N --states K [--database-url URL] [--concurrency C] [--processes P]
 *     [--compare-pgbench] [--json]
 *
 * Creates N objects of a K-state chain in one transaction, runs them to the end with P engine processes
 * (P > 1 needs PostgreSQL) and prints transitions/s, enqueue→start latency (idle: an enqueue woken by
 * NOTIFY; loaded: a transition's immediate re-run while the queue is full), handler-start overlaps (must
 * be 0), peak RSS and the times. Without --database-url it runs on in-memory PGlite. With --compare-pgbench
 * (PostgreSQL only) it then runs `pgbench -N` against the same server and prints both rates and their ratio.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { StateEngine } from "@racksmith/core/engine";
import { type Database, migrate, openDatabase } from "@racksmith/server";
import { sql } from "kysely";
import { BENCH_TYPE, benchChain, DatabaseRecorder, MemoryRecorder, nowMs, type Recorder } from "./chain.js";
import { type PgbenchResult, pgbenchMissing, runPgbench } from "./pgbench.js";
import { countOverlaps, percentile, transitionLatencies } from "./stats.js";

const USAGE =
  "usage: npm run bench:engine -- --objects N --states K [--database-url URL] [--concurrency C] [--processes P] [--latency-samples M] [--compare-pgbench [--pgbench-clients N] [--pgbench-seconds S]] [--json]";

interface Options {
  objects: number;
  states: number;
  databaseUrl: string | undefined;
  concurrency: number;
  processes: number;
  latencySamples: number;
  comparePgbench: boolean;
  pgbenchClients: number;
  pgbenchSeconds: number;
  json: boolean;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      objects: { type: "string", default: "2000" },
      states: { type: "string", default: "5" },
      "database-url": { type: "string" },
      concurrency: { type: "string", default: "32" },
      processes: { type: "string", default: "1" },
      "latency-samples": { type: "string", default: "200" },
      "compare-pgbench": { type: "boolean", default: false },
      "pgbench-clients": { type: "string", default: "4" },
      "pgbench-seconds": { type: "string", default: "10" },
      json: { type: "boolean", default: false },
    },
  });
  const count = (name: keyof typeof values, min: number): number => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < min) usage(`--${name} must be an integer >= ${min}`);
    return value;
  };
  const options: Options = {
    objects: count("objects", 1),
    states: count("states", 2),
    databaseUrl: values["database-url"],
    concurrency: count("concurrency", 1),
    processes: count("processes", 1),
    latencySamples: count("latency-samples", 0),
    comparePgbench: values["compare-pgbench"] ?? false,
    pgbenchClients: count("pgbench-clients", 1),
    pgbenchSeconds: count("pgbench-seconds", 1),
    json: values.json ?? false,
  };
  if (options.comparePgbench && !options.databaseUrl)
    usage("--compare-pgbench needs --database-url (PostgreSQL)");
  if (options.processes > 1 && !options.databaseUrl)
    usage("--processes > 1 needs --database-url (PGlite is one process)");
  return options;
}

function usage(problem: string): never {
  process.stderr.write(`${problem}\n${USAGE}\n`);
  process.exit(2);
}

const WORKER = fileURLToPath(new URL("./worker.ts", import.meta.url));

async function main(): Promise<void> {
  const options = parseOptions();
  const began = nowMs();
  const schema = options.databaseUrl ? `bench_${randomUUID().replace(/-/g, "").slice(0, 12)}` : undefined;
  const database = await openDatabase(
    options.databaseUrl ? { url: options.databaseUrl, schema } : { inMemory: true },
  );
  const children: ChildProcess[] = [];
  try {
    await migrate(database);
    const recorder: Recorder = options.processes > 1 ? new DatabaseRecorder(database) : new MemoryRecorder();
    if (recorder instanceof DatabaseRecorder) await DatabaseRecorder.createTable(database);
    const machine = benchChain(options.states, recorder);
    const config = { concurrency: options.concurrency, iterationIntervalMs: 3_600_000 };
    // Never started: it only creates objects.
    const creator = new StateEngine({ database, machines: [machine] });

    let engine: StateEngine | undefined;
    if (options.processes === 1) {
      engine = new StateEngine({ database, machines: [machine], config });
      await engine.start();
    } else {
      for (let i = 0; i < options.processes; i++) {
        children.push(await startWorker(`bench-${i}`, options, schema ?? "", config));
      }
    }

    progress(options, `creating ${options.objects} objects`);
    const ids = Array.from({ length: options.objects }, (_, i) => `o${String(i).padStart(7, "0")}`);
    const started = nowMs();
    await database.db.transaction().execute(async (trx) => {
      for (const id of ids) await creator.createObject(BENCH_TYPE, id, { state: "s0" }, { trx });
    });
    const created = nowMs();
    await untilFinished(database, options);
    const finished = nowMs();

    progress(options, `measuring idle enqueue→start latency (${options.latencySamples} samples)`);
    const idleLatencies: number[] = [];
    for (let i = 0; i < options.latencySamples; i++) {
      const id = `idle${i}`;
      const before = nowMs();
      await creator.createObject(BENCH_TYPE, id, { state: `s${options.states - 1}` });
      idleLatencies.push((await waitForStart(recorder, id)) - before);
    }

    await engine?.stop();
    const workerRss = await Promise.all(children.map(stopWorker));
    const events = await recorder.events();
    const loaded = transitionLatencies(events);
    const transitions = options.objects * (options.states - 1);
    const seconds = (finished - started) / 1000;
    const pgbench = await comparison(options);
    report(options, {
      dialect: database.kind,
      objects: options.objects,
      states: options.states,
      concurrency: options.concurrency,
      processes: options.processes,
      transitions,
      handlerRuns: options.objects * options.states,
      transitionsPerSecond: Math.round(transitions / seconds),
      createMs: Math.round(created - started),
      runMs: Math.round(finished - started),
      idleEnqueueToStartMs: {
        p50: round(percentile(idleLatencies, 50)),
        p99: round(percentile(idleLatencies, 99)),
      },
      loadedTransitionToStartMs: { p50: round(percentile(loaded, 50)), p99: round(percentile(loaded, 99)) },
      handlerStartOverlaps: countOverlaps(events),
      peakRssMb: {
        main: Math.round(process.resourceUsage().maxRSS / 1024),
        ...(workerRss.length > 0 ? { worstWorker: Math.round(Math.max(...workerRss) / 1024) } : {}),
      },
      ...(pgbench
        ? { pgbench: { ...pgbench, ratio: round(transitions / seconds / (pgbench.tps || 1)) } }
        : {}),
      totalMs: Math.round(nowMs() - began),
    });
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    if (schema)
      await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(database.db).catch(() => undefined);
    await database.close();
  }
}

/** `pgbench -N` on the same server right after the engine's run, when asked for and installed. */
async function comparison(options: Options): Promise<PgbenchResult | undefined> {
  if (!options.comparePgbench || !options.databaseUrl) return undefined;
  const missing = await pgbenchMissing();
  if (missing) {
    process.stderr.write(`--compare-pgbench: not run: ${missing}\n`);
    return undefined;
  }
  progress(options, `running pgbench -N -c ${options.pgbenchClients} for ${options.pgbenchSeconds} s`);
  return runPgbench(options.databaseUrl, options.pgbenchClients, options.pgbenchSeconds);
}

/** Done when every object is in its last state and that state's handler has run (doNothing recorded). */
async function untilFinished(database: Database, options: Options): Promise<void> {
  const last = `s${options.states - 1}`;
  let reported = nowMs();
  for (;;) {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*) AS n FROM state_objects
      WHERE object_type = ${BENCH_TYPE} AND state ->> 'state' = ${last} AND outcome ->> 'kind' = 'doNothing'`.execute(
      database.db,
    );
    const done = rows[0]?.n ?? 0;
    if (done >= options.objects) return;
    if (nowMs() - reported > 2_000) {
      progress(options, `${done}/${options.objects} objects finished`);
      reported = nowMs();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function waitForStart(recorder: Recorder, id: string): Promise<number> {
  const deadline = nowMs() + 30_000;
  for (;;) {
    const at = await recorder.firstStart(id);
    if (at !== undefined) return at;
    if (nowMs() > deadline) throw new Error(`object ${id} never started`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

function startWorker(name: string, options: Options, schema: string, config: object): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--conditions=@racksmith/source", "--import", "tsx", WORKER], {
    env: {
      ...process.env,
      BENCH_WORKER: name,
      BENCH_DATABASE_URL: options.databaseUrl,
      BENCH_SCHEMA: schema,
      BENCH_STATES: String(options.states),
      BENCH_ENGINE_CONFIG: JSON.stringify(config),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout?.once("data", () => resolve(child));
    child.once("exit", (code) => reject(new Error(`benchmark worker ${name} exited with ${code}`)));
  });
}

function stopWorker(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", () => {
      const line = output.trim().split("\n").pop() ?? "{}";
      resolve((JSON.parse(line) as { maxRssKb?: number }).maxRssKb ?? 0);
    });
    child.kill("SIGTERM");
  });
}

function progress(options: Options, message: string): void {
  if (!options.json) process.stderr.write(`… ${message}\n`);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function report(options: Options, figures: Record<string, unknown>): void {
  if (options.json) {
    process.stdout.write(`${JSON.stringify(figures)}\n`);
    return;
  }
  const f = figures as {
    dialect: string;
    transitionsPerSecond: number;
    idleEnqueueToStartMs: { p50: number; p99: number };
    loadedTransitionToStartMs: { p50: number; p99: number };
    handlerStartOverlaps: number;
    peakRssMb: { main: number; worstWorker?: number };
    pgbench?: PgbenchResult & { ratio: number };
    runMs: number;
    createMs: number;
    totalMs: number;
    transitions: number;
  };
  const rows: Array<[string, string]> = [
    ["dialect", `${f.dialect}, ${options.processes} process(es), concurrency ${options.concurrency}`],
    ["objects × states", `${options.objects} × ${options.states} (${f.transitions} transitions)`],
    ["transitions/s", String(f.transitionsPerSecond)],
    [
      "enqueue→start, idle (NOTIFY)",
      `p50 ${f.idleEnqueueToStartMs.p50} ms, p99 ${f.idleEnqueueToStartMs.p99} ms`,
    ],
    [
      "transition→next start, loaded",
      `p50 ${f.loadedTransitionToStartMs.p50} ms, p99 ${f.loadedTransitionToStartMs.p99} ms`,
    ],
    ["handler-start overlaps", String(f.handlerStartOverlaps)],
    [
      "peak RSS",
      `${f.peakRssMb.main} MB${f.peakRssMb.worstWorker === undefined ? "" : ` (main), ${f.peakRssMb.worstWorker} MB (largest worker)`}`,
    ],
    ...(f.pgbench
      ? ([
          [
            "pgbench -N (same server)",
            `${Math.round(f.pgbench.tps)} TPS (${f.pgbench.clients} clients, ${f.pgbench.seconds} s)`,
          ],
          ["engine ÷ pgbench", `${f.pgbench.ratio}`],
        ] as Array<[string, string]>)
      : []),
    ["time", `run ${f.runMs} ms (of which creating ${f.createMs} ms), total ${f.totalMs} ms`],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  for (const [label, value] of rows) process.stdout.write(`${label.padEnd(width)}  ${value}\n`);
}

await main();
