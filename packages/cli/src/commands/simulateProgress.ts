import type { ObjectStateView } from "@racksmith/core/engine";
import { countByState, progressLine } from "@racksmith/simulator";
import type { CliIo } from "../io.js";

export const PROGRESS_FORMATS = ["text", "json"] as const;
export type ProgressFormat = (typeof PROGRESS_FORMATS)[number];

const PLAIN_PROGRESS_MS = 5_000;

/** What `simulate --hosts` reports while it runs; one implementation per `--progress` format (or none). */
export interface SiteProgress {
  started(site: {
    hosts: number;
    rest: string;
    grpc: string;
    dataDir: string;
    /** The admin token the site's service wrote, which the CLI's commands need. */
    tokenFile: string | undefined;
    resumed: boolean;
    /** Hosts registered by an earlier run of a resumed site. */
    alreadyRegistered: number;
  }): void;
  /** Every poll, with the hosts as they are now. */
  update(states: readonly ObjectStateView[], elapsedMs: number): void;
  /** Once, the first time every host reads Ready. */
  allReady(elapsedMs: number): void;
  /** The watch ended (reached, timed out or stopped). */
  finished(): void;
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** `--progress json`: newline-delimited events on standard output, each tagged with `event`. */
export function jsonProgress(io: CliIo, hosts: number): SiteProgress {
  const emit = (event: string, fields: Record<string, unknown>) =>
    io.stdout.write(`${JSON.stringify({ event, ...fields })}\n`);
  let last = "";
  return {
    started: (site) => emit("started", { ...site }),
    update(states, elapsedMs) {
      const counts = countByState(states);
      const key = JSON.stringify([states.length, counts]);
      // Only changes are events: a long quiet wait is not a stream of identical lines.
      if (key === last) return;
      last = key;
      emit("progress", {
        elapsedSeconds: seconds(elapsedMs),
        hosts,
        ingested: states.length,
        states: counts,
      });
    },
    allReady: (elapsedMs) => emit("ready", { hosts, elapsedSeconds: seconds(elapsedMs) }),
    finished: () => undefined,
  };
}

/** `--json` without `--progress json`: nothing until the summary. */
export const silentProgress: SiteProgress = {
  started: () => undefined,
  update: () => undefined,
  allReady: () => undefined,
  finished: () => undefined,
};

/** The human default on standard error: a live line on a terminal, a changed line every 5 s otherwise. */
export function textProgress(io: CliIo, hosts: number): SiteProgress {
  const tty = io.stderr.isTTY === true;
  let lastLine = "";
  let lastPrinted = 0;
  return {
    started(site) {
      if (site.resumed) {
        io.stderr.write(
          `Resumed the simulated site in ${site.dataDir}: ${site.alreadyRegistered} of ${hosts} hosts were already registered\n`,
        );
      }
      io.stderr.write(
        `Simulated site: ${hosts} hosts, REST ${site.rest}, gRPC ${site.grpc}, data in ${site.dataDir}\n` +
          (site.tokenFile ? `Admin token: export RACKSMITH_TOKEN_FILE=${site.tokenFile}\n` : "") +
          "Try: racksmith machine list · racksmith instance allocate --machine <host id> --tenant acme\n",
      );
    },
    update(states, elapsedMs) {
      const line = progressLine(states, hosts, elapsedMs);
      // The first 6 characters are the elapsed time: a line that changed only there is not news.
      const changed = line.slice(6) !== lastLine.slice(6);
      if (tty) io.stderr.write(`\r${line}\x1b[K`);
      else if (changed && Date.now() - lastPrinted >= PLAIN_PROGRESS_MS) {
        io.stderr.write(`${line}\n`);
        lastPrinted = Date.now();
      }
      lastLine = line;
    },
    allReady(elapsedMs) {
      io.stderr.write(`${tty ? "\r\x1b[K" : ""}${readyLine(hosts, elapsedMs)}\n`);
    },
    finished() {
      io.stderr.write(tty ? "\n" : `${lastLine}\n`);
    },
  };
}

/** Said once, when the whole rack first reads Ready: what to try next. */
function readyLine(hosts: number, elapsedMs: number): string {
  return (
    `All ${hosts} hosts Ready after ${Math.round(elapsedMs / 1000)} s — try: racksmith machine list · ` +
    "racksmith instance allocate --machine <host id> --tenant acme · racksmith machine show <host id> --history"
  );
}
