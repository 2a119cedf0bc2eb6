import type { ServerStatsMessage } from "./server.js";

/** One client's loop over every slice: what it did, and what the server did for it. */
export class Tally {
  explorations = 0;
  seconds = 0;
  cpuMs = 0;
  requests = 0;
  serverCpuMs = 0;

  /** Adds one slice: the client's own figures and the server's counters before and after it. */
  add(
    slice: { explorations: number; seconds: number; cpuMs: number },
    before: ServerStatsMessage,
    after: ServerStatsMessage,
  ): void {
    this.explorations += slice.explorations;
    this.seconds += slice.seconds;
    this.cpuMs += slice.cpuMs;
    this.requests += after.requests - before.requests;
    this.serverCpuMs += after.cpuMs - before.cpuMs;
  }

  get rate(): number {
    return this.explorations / this.seconds;
  }

  /** The figures every client reports, rounded for printing. */
  figures(): Record<string, number> {
    const each = (total: number) => round(total / this.explorations);
    return {
      explorations: this.explorations,
      explorationsPerSecond: round(this.rate),
      requestsPerExploration: each(this.requests),
      cpuMsPerExploration: each(this.cpuMs),
      serverCpuMsPerExploration: each(this.serverCpuMs),
    };
  }
}

export function round(value: number): number {
  return Math.round(value * 100) / 100;
}
