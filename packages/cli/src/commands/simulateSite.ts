import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { ObjectStateView } from "@racksmith/core/engine";
import { loadConfig } from "@racksmith/server";
import {
  countByState,
  progressLine,
  type SimulatedSite,
  SimulatedSiteMismatchError,
  startSimulatedSite,
  stuckHosts,
  transitionCount,
} from "@racksmith/simulator";
import type { Command } from "commander";
import { ReportedFailure, UsageError } from "../errors.js";
import type { CliIo } from "../io.js";
import { renderTable } from "../output/table.js";

interface SiteFlags {
  hosts?: string;
  until?: string;
  timeout: string;
  config?: string;
  dataDir?: string;
  databaseUrl?: string;
  http?: string;
  grpc?: string;
  seed?: string;
  json?: boolean;
  ufm?: boolean;
  nmxm?: boolean;
}

const POLL_MS = 500;
const PLAIN_PROGRESS_MS = 5_000;

/** `racksmith simulate --hosts N`: the service, a simulated rack and its agents, with a live progress line. */
export function registerSiteSimulation(simulate: Command, io: CliIo): void {
  simulate
    .option(
      "--hosts <n>",
      "run the service with a simulated rack of N hosts (one BlueField DPU each) and agents",
    )
    .option("--until <state>", "exit 0 once every host is in this state (ready)")
    .option("--timeout <seconds>", "with --until: exit 1 after this long, listing the stuck hosts", "600")
    .option(
      "--config <file>",
      "operator config whose plugins and driver settings the site uses (default racksmith.yaml)",
    )
    .option(
      "--data-dir <dir>",
      "keep the site (config, secrets, embedded database) here; a later run with the same --hosts and --seed resumes it (default: a temporary folder, removed)",
    )
    .option(
      "--database-url <url>",
      "PostgreSQL instead of the embedded database (a fresh schema, dropped at exit)",
    )
    .option("--http <host:port>", "REST API (default 127.0.0.1:8080)")
    .option("--grpc <host:port>", "gRPC API, where the agents report (default 127.0.0.1:50051)")
    .option("--seed <n>", "scenario seed: serials, MACs and models follow from it", "1")
    .option("--json", "print one summary object at the end")
    .option("--ufm", "add a UFM simulator wired to the hosts' InfiniBand ports (fabrics.infiniband)")
    .option("--nmxm", "add an NMX-M simulator wired to the hosts' GPUs (fabrics.nvlink)")
    .action(async (flags: SiteFlags) => {
      if (flags.hosts === undefined) {
        throw new UsageError(
          "racksmith simulate: give --hosts N, or a subcommand (fleet)",
          "racksmith simulate",
        );
      }
      const hosts = positiveInteger(flags.hosts, "--hosts");
      const timeoutMs = positiveInteger(flags.timeout, "--timeout") * 1_000;
      if (flags.until !== undefined && flags.until !== "ready") {
        throw new UsageError(
          `--until takes "ready", got ${JSON.stringify(flags.until)}`,
          "racksmith simulate",
        );
      }
      const base = loadConfig({ ...(flags.config ? { file: flags.config } : {}), cwd: io.cwd });
      const dir = flags.dataDir
        ? resolve(io.cwd, flags.dataDir)
        : await mkdtemp(join(tmpdir(), "racksmith-sim-"));
      const started = Date.now();
      const site = await startSimulatedSite({
        hosts,
        seed: positiveInteger(flags.seed ?? "1", "--seed"),
        base,
        dir,
        ...(flags.databaseUrl ? { databaseUrl: flags.databaseUrl } : {}),
        http: flags.http ?? "127.0.0.1:8080",
        grpc: flags.grpc ?? "127.0.0.1:50051",
        ...(flags.ufm ? { ufm: true } : {}),
        ...(flags.nmxm ? { nmxm: true } : {}),
      }).catch(async (error: unknown) => {
        if (!flags.dataDir) await rm(dir, { recursive: true, force: true });
        throw error instanceof SimulatedSiteMismatchError
          ? new SimulatedSiteMismatchError(
              error.where,
              error.differences,
              `resume it with the --hosts and --seed it was made with, or start afresh with another --data-dir (or remove ${dir})`,
            )
          : error;
      });
      try {
        if (!flags.json) {
          if (site.resumed) {
            io.stderr.write(
              `Resumed the simulated site in ${dir}: ${site.registration.alreadyExpected} of ${hosts} hosts were already registered\n`,
            );
          }
          io.stderr.write(
            `Simulated site: ${hosts} hosts, REST ${site.url}, gRPC ${site.grpcAddress}, data in ${dir}\n` +
              "Try: racksmith machine list · racksmith instance allocate --machine <host id> --tenant acme\n",
          );
        }
        const reached = await watch(site, io, {
          hosts,
          until: flags.until,
          timeoutMs,
          json: flags.json === true,
          started,
        });
        const states = await site.hostStates();
        const summary = {
          hosts,
          resumed: site.resumed,
          states: countByState(states),
          elapsedSeconds: Math.round((Date.now() - started) / 100) / 10,
          transitions: transitionCount(states),
          redfishRequests: site.fleet.stats.total,
        };
        if (flags.json) io.stdout.write(`${JSON.stringify(summary)}\n`);
        else if (flags.until === undefined) io.stderr.write(`${stopSummary(summary)}\n`);
        if (flags.until !== undefined && !reached) {
          const stuck = stuckHosts(states, flags.until);
          const notIngested = hosts - states.length;
          io.stderr.write(
            `racksmith: ${stuck.length + notIngested} of ${hosts} hosts did not reach ${flags.until} in ${Math.round(summary.elapsedSeconds)} s (--timeout ${timeoutMs / 1000} s, counted from the start, site start-up included):\n`,
          );
          if (stuck.length > 0) io.stderr.write(renderTable(stuck, ["id", "state", "aboveSla", "reason"]));
          if (notIngested > 0) {
            io.stderr.write(
              `${notIngested} not ingested yet (their BMCs' verdicts: racksmith site-explorer managed-hosts)\n`,
            );
          }
          throw new ReportedFailure();
        }
      } finally {
        await site.stop();
        if (!flags.dataDir) await rm(dir, { recursive: true, force: true });
      }
    });
}

/**
 * Shows progress until every host is in `until` (true), the timeout passes (false), or — without `until` —
 * the user stops the command.
 */
async function watch(
  site: SimulatedSite,
  io: CliIo,
  options: { hosts: number; until: string | undefined; timeoutMs: number; json: boolean; started: number },
): Promise<boolean> {
  let stopped = false;
  if (options.until === undefined) void io.untilStopped().then(() => (stopped = true));
  const tty = io.stderr.isTTY === true;
  let lastLine = "";
  let lastPrinted = 0;
  let announced = false;
  for (;;) {
    const states = await site.hostStates();
    const elapsed = Date.now() - options.started;
    if (!announced && !options.json && allIn(states, options.hosts, "ready")) {
      announced = true;
      io.stderr.write(`${tty ? "\r\x1b[K" : ""}${readyLine(options.hosts, elapsed)}\n`);
    }
    if (!options.json) {
      const line = progressLine(states, options.hosts, elapsed);
      const changed = line.slice(6) !== lastLine.slice(6);
      if (tty) io.stderr.write(`\r${line}\x1b[K`);
      else if (changed && Date.now() - lastPrinted >= PLAIN_PROGRESS_MS) {
        io.stderr.write(`${line}\n`);
        lastPrinted = Date.now();
      }
      lastLine = line;
    }
    const done = options.until !== undefined && allIn(states, options.hosts, options.until);
    if (done || stopped || (options.until !== undefined && elapsed > options.timeoutMs)) {
      if (!options.json) io.stderr.write(tty ? "\n" : `${lastLine}\n`);
      return done;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Every one of the site's hosts is ingested and in `state`. */
function allIn(states: readonly ObjectStateView[], hosts: number, state: string): boolean {
  return states.length === hosts && states.every((host) => host.state.state === state);
}

/** Said once, when the whole rack first reads Ready: what to try next. */
function readyLine(hosts: number, elapsedMs: number): string {
  return (
    `All ${hosts} hosts Ready after ${Math.round(elapsedMs / 1000)} s — try: racksmith machine list · ` +
    "racksmith instance allocate --machine <host id> --tenant acme · racksmith machine show <host id> --history"
  );
}

/** The line a stopped (Ctrl+C) simulation ends with. */
function stopSummary(summary: {
  elapsedSeconds: number;
  states: Record<string, number>;
  transitions: number;
  redfishRequests: number;
}): string {
  const states = Object.entries(summary.states).map(([state, count]) => `${count} ${state}`);
  return (
    `Stopped after ${Math.round(summary.elapsedSeconds)} s: ${states.join(" · ") || "no host ingested"} · ` +
    `${summary.transitions} transitions · ${summary.redfishRequests} Redfish requests`
  );
}

function positiveInteger(value: string, flag: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) {
    throw new UsageError(
      `${flag} must be a positive integer, got ${JSON.stringify(value)}`,
      "racksmith simulate",
    );
  }
  return number;
}
