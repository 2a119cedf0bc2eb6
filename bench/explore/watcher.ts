import type { Logger } from "@racksmith/core";

/** What the site-explorer feature logs after each run (`IterationSummary`). */
export interface RunSummary {
  explored: number;
  failed: number;
  ingested: number;
  waiting: number;
  rejected: number;
}

export interface RunEnd {
  /** Epoch ms when the run's log line came. */
  at: number;
  summary: RunSummary | undefined;
  /** Set when the loop logged "site exploration run failed". */
  failure: string | undefined;
}

/** Warnings and errors printed as they come, at most this many (the rest are only counted). */
const PRINTED_PROBLEMS = 20;

/**
 * The service's logger: drops debug and info, except that it notices the end of each site exploration run
 * and counts rotations; prints warnings and errors to stderr (the first few) and counts them all.
 */
export class RunWatcher implements Logger {
  runs = 0;
  rotations = 0;
  warnings = 0;
  errors = 0;
  private waiter: { after: number; resolve: (end: RunEnd) => void } | undefined;
  private readonly ends: RunEnd[] = [];

  debug(): void {}

  info(fields: Record<string, unknown>, message: string): void {
    if (message === "site exploration run") {
      this.ended({ at: Date.now(), summary: fields as unknown as RunSummary, failure: undefined });
    } else if (message === "BMC password rotated to the site password") {
      this.rotations++;
    }
  }

  warn(fields: Record<string, unknown>, message: string): void {
    this.warnings++;
    this.print("warn", fields, message);
  }

  error(fields: Record<string, unknown>, message: string): void {
    this.errors++;
    this.print("error", fields, message);
    if (message === "site exploration run failed") {
      this.ended({ at: Date.now(), summary: undefined, failure: String(fields.err ?? "unknown error") });
    }
  }

  /** Resolves with the end of run number `count` (1: the first run since start), or rejects after `timeoutMs`. */
  waitForRun(count: number, timeoutMs: number, what: string): Promise<RunEnd> {
    const done = this.ends[count - 1];
    if (done) return Promise.resolve(done);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        reject(new Error(`${what}: no site exploration run ended within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      this.waiter = {
        after: count,
        resolve: (end) => {
          clearTimeout(timer);
          resolve(end);
        },
      };
    });
  }

  private ended(end: RunEnd): void {
    this.runs++;
    this.ends.push(end);
    if (this.waiter && this.runs >= this.waiter.after) {
      const { resolve } = this.waiter;
      this.waiter = undefined;
      resolve(end);
    }
  }

  private print(level: string, fields: Record<string, unknown>, message: string): void {
    const count = this.warnings + this.errors;
    if (count > PRINTED_PROBLEMS) return;
    const suffix = count === PRINTED_PROBLEMS ? " (further warnings and errors are only counted)" : "";
    process.stderr.write(`! service ${level}: ${message} ${JSON.stringify(fields)}${suffix}\n`);
  }
}
