import { createWriteStream, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "@racksmith/core";
import { type MachineDetail, type MachineView, ServiceClient } from "@racksmith/server";
import {
  type Fleet,
  fastTimings,
  type GenerateScenarioOptions,
  generateScenario,
  registerFleet,
  type SimulatedAgents,
  type SimulatedSiteSections,
  startFleet,
  startSimulatedAgents,
  writeSimulatedSite,
} from "@racksmith/simulator";
import { ALL_DRIVERS } from "../allDrivers.js";
import { freePort } from "./ports.js";
import { ChaosDatabase } from "./postgres.js";
import { type ServeLine, ServeProcess } from "./serveProcess.js";
import { waitFor } from "./waitFor.js";

/** Startup takes seconds; minutes on a busy machine (tsx compiles the sources on the first start). */
const STARTUP_TIMEOUT_MS = 180_000;
/** How often a long wait prints where the hosts are. */
const PROGRESS_EVERY_MS = 20_000;

type Sections = Partial<Pick<SimulatedSiteSections, "engine" | "siteExplorer" | "lifecycle" | "monitor">>;

export interface ChaosSiteOptions {
  /** The scenario's name: the folder, schema and application names carry it. */
  readonly name: string;
  readonly databaseUrl: string;
  readonly hosts: number;
  /** The fleet's seed (serials, MACs, models). */
  readonly seed: number;
  /** Replicas by name, each with its own fixed ports (default `["a"]`). */
  readonly replicas?: readonly string[];
  /** More of the fleet's scenario: factory credentials, anomalies. */
  readonly scenario?: Omit<GenerateScenarioOptions, "hosts" | "seed">;
  /** Sections merged over the simulator's fast timings, key by key. */
  readonly sections?: Sections;
  /** `debug` shows what the engine logs per handler run; default `info`. */
  readonly logLevel?: "debug" | "info";
  /** Progress lines. */
  readonly log: (line: string) => void;
  /** Every line every service prints, as it is read. */
  readonly onLine?: (line: ServeLine) => void;
}

/**
 * A simulated site for chaos: the fleet of virtual BMCs and the simulated agents in the runner's process (they
 * outlive every kill, as real BMCs and agents do), `racksmith serve` replicas as child processes on fixed
 * loopback ports, and a fresh PostgreSQL schema. {@link close} stops and removes all of it, whatever happened.
 */
export class ChaosSite {
  /** Every process started, in order (a kill and restart adds one). */
  readonly processes: ServeProcess[] = [];
  private readonly running = new Map<string, ServeProcess>();
  private readonly generations = new Map<string, number>();
  private agents: SimulatedAgents | undefined;
  private closed = false;
  private adminToken: string | undefined;
  private closeAgentLog: () => Promise<unknown> = async () => undefined;

  private constructor(
    private readonly options: ChaosSiteOptions,
    readonly fleet: Fleet,
    readonly dir: string,
    readonly logsDir: string,
    readonly database: ChaosDatabase,
    readonly configFile: string,
    private readonly ports: ReadonlyMap<string, { http: number; grpc: number }>,
  ) {}

  /** Starts the fleet and writes the site folder; no service runs yet ({@link start}). */
  static async create(options: ChaosSiteOptions): Promise<ChaosSite> {
    const undo: Array<() => Promise<unknown>> = [];
    try {
      const fleet = await startFleet({
        scenario: generateScenario({ ...options.scenario, hosts: options.hosts, seed: options.seed }),
        service: { taskDurationMs: 50 },
      });
      undo.push(() => fleet.stop());
      const dir = await mkdtemp(join(tmpdir(), `racksmith-chaos-${options.name}-`));
      undo.push(() => rm(dir, { recursive: true, force: true }));
      const logsDir = await mkdtemp(join(tmpdir(), `racksmith-chaos-${options.name}-logs-`));
      undo.push(() => rm(logsDir, { recursive: true, force: true }));
      const database = await ChaosDatabase.open(options.databaseUrl, options.name);
      undo.push(() => database.drop());
      const ports = new Map<string, { http: number; grpc: number }>();
      for (const replica of options.replicas ?? ["a"]) {
        ports.set(replica, { http: await freePort(), grpc: await freePort() });
      }
      const fast = fastTimings(options.hosts);
      const sections = options.sections ?? {};
      const configFile = await writeSimulatedSite({
        dir,
        fleet,
        base: ALL_DRIVERS,
        sections: {
          // The URL (with each replica's application_name) comes on the command line.
          database: { schema: database.schema },
          // Overridden per replica on the command line.
          server: { http: "127.0.0.1:0", grpc: "127.0.0.1:0" },
          engine: { ...fast.engine, ...sections.engine },
          siteExplorer: { ...fast.siteExplorer, ...sections.siteExplorer },
          lifecycle: { ...fast.lifecycle, ...sections.lifecycle },
          monitor: { ...fast.monitor, ...sections.monitor },
          log: { level: options.logLevel ?? "info" },
        },
      });
      options.log(
        `site ${dir}: ${options.hosts} hosts (seed ${options.seed}), schema ${database.schema}, logs ${logsDir}`,
      );
      return new ChaosSite(options, fleet, dir, logsDir, database, configFile, ports);
    } catch (error) {
      for (const step of undo.reverse()) await step().catch(() => undefined);
      throw error;
    }
  }

  get replicas(): string[] {
    return [...this.ports.keys()];
  }

  /** A replica's REST base URL (its port is fixed: valid across restarts, whether it runs now or not). */
  url(replica = "a"): string {
    return `http://127.0.0.1:${this.portsOf(replica).http}`;
  }

  grpcAddress(replica = "a"): string {
    return `127.0.0.1:${this.portsOf(replica).grpc}`;
  }

  /** The running process of a replica. */
  service(replica = "a"): ServeProcess | undefined {
    return this.running.get(replica);
  }

  /** Starts `racksmith serve` for a replica (again, after a kill: same config, ports and schema). */
  async start(replica = "a"): Promise<ServeProcess> {
    if (this.closed) throw new Error("the site is closed");
    if (this.running.get(replica)?.alive) throw new Error(`replica ${replica} is already running`);
    const { http, grpc } = this.portsOf(replica);
    const generation = (this.generations.get(replica) ?? 0) + 1;
    this.generations.set(replica, generation);
    const name = `${replica}#${generation}`;
    const serve = await ServeProcess.start({
      name,
      replica,
      configFile: this.configFile,
      cwd: this.dir,
      flags: [
        "--http",
        `127.0.0.1:${http}`,
        "--grpc",
        `127.0.0.1:${grpc}`,
        "--database-url",
        this.database.serviceUrl(replica),
      ],
      logFile: join(this.logsDir, `serve-${replica}.log`),
      onLine: (line) => this.options.onLine?.(line),
      startupTimeoutMs: STARTUP_TIMEOUT_MS,
    });
    this.processes.push(serve);
    this.running.set(replica, serve);
    return serve;
  }

  /** SIGKILLs a replica's process and waits until it is gone. */
  async kill(replica = "a"): Promise<ServeProcess> {
    const serve = this.running.get(replica);
    if (!serve) throw new Error(`replica ${replica} is not running`);
    await serve.kill();
    this.running.delete(replica);
    return serve;
  }

  /**
   * The admin token the replicas' shared data directory holds (either replica verifies the other's tokens:
   * they publish their signing keys to the database they share).
   */
  get token(): string {
    const file = [...this.running.values()].find((serve) => serve.adminTokenFile)?.adminTokenFile;
    if (!file) throw new Error("no replica has started: there is no admin token yet");
    this.adminToken ??= readFileSync(file, "utf8").trim();
    return this.adminToken;
  }

  /** Registers the fleet (expected machines, DHCP discoveries) through a replica's REST API. */
  async register(replica = "a"): Promise<void> {
    await registerFleet(this.fleet, new ServiceClient(this.url(replica), { token: this.token }));
  }

  /** Starts the simulated agents against one replica's gRPC address (they take one). */
  startAgents(replica = "a"): SimulatedAgents {
    if (this.agents) throw new Error("the agents already run");
    this.agents = startSimulatedAgents({
      fleet: this.fleet,
      grpcAddress: this.grpcAddress(replica),
      token: this.token,
      logger: this.agentLogger(),
    });
    return this.agents;
  }

  /** What the agents did: calls failed per gRPC status, boots, OS installs (`-` before they started). */
  agentSummary(): string {
    const stats = this.agents?.stats;
    if (!stats) return "-";
    const errors = Object.entries(stats.errors)
      .map(([code, count]) => `${code} ${count}`)
      .join(", ");
    return `${stats.bootsSeen} boots · ${stats.osInstalls} DPU OS installs · failed calls: ${errors || "none"}`;
  }

  /** The agents' lines go to agents.log; errors (a crashed simulated agent) are also printed. */
  private agentLogger(): Logger {
    const file = createWriteStream(join(this.logsDir, "agents.log"), { flags: "a" });
    this.closeAgentLog = () => new Promise((resolve) => file.end(resolve));
    const write = (level: string) => (fields: Record<string, unknown>, message: string) => {
      file.write(`${JSON.stringify({ level, time: Date.now(), ...fields, msg: message })}\n`);
      if (level === "error") this.options.log(`agents: ${message} ${JSON.stringify(fields)}`);
    };
    // Debug too: the agents log each failed call they retry (with its gRPC status), which is what a kill shows.
    return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
  }

  /** A REST GET; a non-2xx answer throws with the body. */
  async get<T>(path: string, replica = "a"): Promise<T> {
    const response = await fetch(`${this.url(replica)}${path}`, {
      headers: { authorization: `Bearer ${this.token}` },
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status} ${text.slice(0, 500)}`);
    return JSON.parse(text) as T;
  }

  /** The managed hosts (`kind: host`) as `/api/v1/machines` lists them. */
  async hosts(replica = "a"): Promise<MachineView[]> {
    const { machines } = await this.get<{ machines: MachineView[] }>("/api/v1/machines", replica);
    return machines.filter((machine) => machine.kind === "host");
  }

  /** One machine with its lifecycle history (`/api/v1/machines/{id}`). */
  machine(id: string, replica = "a"): Promise<MachineDetail> {
    return this.get<MachineDetail>(`/api/v1/machines/${encodeURIComponent(id)}`, replica);
  }

  /** `12 ready · 3 hostInit · 10 not ingested`. */
  async progress(replica = "a"): Promise<string> {
    const hosts = await this.hosts(replica);
    const counts = new Map<string, number>();
    for (const host of hosts) counts.set(host.state ?? "none", (counts.get(host.state ?? "none") ?? 0) + 1);
    const parts = [...counts.entries()]
      .sort(([a], [b]) => (a === "ready" ? -1 : b === "ready" ? 1 : a.localeCompare(b)))
      .map(([state, count]) => `${count} ${state}`);
    const missing = this.options.hosts - hosts.length;
    if (missing > 0) parts.push(`${missing} not ingested`);
    return parts.join(" · ");
  }

  /**
   * Waits until every host of the fleet is ingested and settled: Ready, or accepted by `settled` (a host that
   * legitimately failed). Returns the hosts. The timeout is a safety net for a stuck run.
   */
  async waitSettled(options: {
    replica?: string;
    timeoutMs: number;
    settled?: (host: MachineView) => boolean;
  }): Promise<MachineView[]> {
    const replica = options.replica ?? "a";
    const settled = options.settled ?? ((host: MachineView) => host.state === "ready");
    let lastProgress = Date.now();
    return waitFor(
      async () => {
        const hosts = await this.hosts(replica);
        if (Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
          lastProgress = Date.now();
          this.options.log(`  ${await this.progress(replica)}`);
        }
        return hosts.length === this.options.hosts && hosts.every(settled) ? hosts : undefined;
      },
      {
        what: `${this.options.hosts} settled hosts`,
        timeoutMs: options.timeoutMs,
        everyMs: 1_000,
        describe: () => this.describeUnsettled(settled, replica),
      },
    );
  }

  /** The hosts not settled, each with its state label and last outcome. */
  async describeUnsettled(
    settled: (host: MachineView) => boolean = (host) => host.state === "ready",
    replica = "a",
  ): Promise<string> {
    const hosts = await this.hosts(replica);
    const lines = [`${await this.progress(replica)}`];
    for (const host of hosts.filter((h) => !settled(h)).slice(0, 20)) {
      const detail = await this.machine(host.id, replica).catch(() => undefined);
      const outcome = detail?.lifecycle?.outcome;
      const why =
        (outcome as { reason?: string; error?: { message?: string }; kind?: string } | null | undefined) ??
        undefined;
      lines.push(
        `  ${host.id} ${detail?.lifecycle?.stateLabel ?? host.state}: ${why?.reason ?? why?.error?.message ?? why?.kind ?? "not run yet"}`,
      );
    }
    return lines.join("\n");
  }

  /** Every host's detail, read one at a time (a few dozen hosts). */
  async details(replica = "a"): Promise<MachineDetail[]> {
    const details: MachineDetail[] = [];
    for (const host of await this.hosts(replica)) details.push(await this.machine(host.id, replica));
    return details;
  }

  /**
   * Stops everything — agents, every replica (SIGTERM, then SIGKILL), the fleet — then drops the schema and
   * removes the site folder; the logs folder too unless `keepLogs`. Never throws: what could not be undone is
   * returned, to be reported.
   */
  async close(options: { keepLogs: boolean }): Promise<string[]> {
    if (this.closed) return [];
    this.closed = true;
    const problems: string[] = [];
    const step = async (what: string, action: () => Promise<unknown>) => {
      try {
        await action();
      } catch (error) {
        problems.push(`cleanup: ${what}: ${(error as Error).message ?? String(error)}`);
      }
    };
    await step("stop the agents", async () => this.agents?.stop());
    await step("close the agents' log", () => this.closeAgentLog());
    for (const serve of this.processes) await step(`stop ${serve.name}`, () => serve.stop(15_000));
    this.running.clear();
    await step("stop the fleet", () => this.fleet.stop());
    await step(`drop schema ${this.database.schema}`, () => this.database.drop());
    await step("remove the site folder", () => rm(this.dir, { recursive: true, force: true }));
    if (options.keepLogs) this.options.log(`service logs kept in ${this.logsDir}`);
    else await step("remove the logs", () => rm(this.logsDir, { recursive: true, force: true }));
    return problems;
  }

  private portsOf(replica: string): { http: number; grpc: number } {
    const ports = this.ports.get(replica);
    if (!ports) throw new Error(`no replica ${replica} (replicas: ${this.replicas.join(", ")})`);
    return ports;
  }
}
