import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { ObjectStateView } from "@racksmith/core/engine";
import { loadConfig } from "@racksmith/server";
import {
  countByState,
  type SimulatedSite,
  SimulatedSiteMismatchError,
  startSimulatedSite,
  stuckHosts,
  transitionCount,
} from "@racksmith/simulator";
import { type Command, Option } from "commander";
import { ReportedFailure, UsageError } from "../errors.js";
import type { CliIo } from "../io.js";
import { renderTable } from "../output/table.js";
import {
  jsonProgress,
  PROGRESS_FORMATS,
  type ProgressFormat,
  type SiteProgress,
  silentProgress,
  textProgress,
} from "./simulateProgress.js";

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
  progress?: ProgressFormat;
  ufm?: boolean;
  nmxm?: boolean;
}

const POLL_MS = 500;

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
    .addOption(
      new Option(
        "--progress <format>",
        "text (a live line on standard error) or json (newline-delimited events on standard output, the summary last)",
      ).choices(PROGRESS_FORMATS),
    )
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
      const format: ProgressFormat = flags.progress ?? "text";
      const progress =
        format === "json" ? jsonProgress(io, hosts) : flags.json ? silentProgress : textProgress(io, hosts);
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
        progress.started({
          hosts,
          rest: site.url,
          grpc: site.grpcAddress,
          dataDir: dir,
          tokenFile: site.service.adminTokenFile,
          resumed: site.resumed,
          alreadyRegistered: site.registration.alreadyExpected,
        });
        const reached = await watch(site, io, progress, { hosts, until: flags.until, timeoutMs, started });
        const states = await site.hostStates();
        const summary = {
          hosts,
          resumed: site.resumed,
          states: countByState(states),
          elapsedSeconds: Math.round((Date.now() - started) / 100) / 10,
          transitions: transitionCount(states),
          redfishRequests: site.fleet.stats.total,
        };
        const stuck = flags.until !== undefined && !reached ? stuckHosts(states, flags.until) : [];
        if (format === "json") {
          io.stdout.write(`${JSON.stringify({ event: "summary", ...summary, stuck })}\n`);
        } else if (flags.json) io.stdout.write(`${JSON.stringify(summary)}\n`);
        else if (flags.until === undefined) io.stderr.write(`${stopSummary(summary)}\n`);
        if (flags.until !== undefined && !reached) {
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
 * Reports progress until every host is in `until` (true), the timeout passes (false), or — without `until` —
 * the user stops the command.
 */
async function watch(
  site: SimulatedSite,
  io: CliIo,
  progress: SiteProgress,
  options: { hosts: number; until: string | undefined; timeoutMs: number; started: number },
): Promise<boolean> {
  let stopped = false;
  if (options.until === undefined) void io.untilStopped().then(() => (stopped = true));
  let announced = false;
  for (;;) {
    const states = await site.hostStates();
    const elapsed = Date.now() - options.started;
    if (!announced && allIn(states, options.hosts, "ready")) {
      announced = true;
      progress.allReady(elapsed);
    }
    progress.update(states, elapsed);
    const done = options.until !== undefined && allIn(states, options.hosts, options.until);
    if (done || stopped || (options.until !== undefined && elapsed > options.timeoutMs)) {
      progress.finished();
      return done;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Every one of the site's hosts is ingested and in `state`. */
function allIn(states: readonly ObjectStateView[], hosts: number, state: string): boolean {
  return states.length === hosts && states.every((host) => host.state.state === state);
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
