/**
 * Handler overlap: two handlers of the same engine object running at once (across replicas, or across a kill
 * and restart). The engine's claim (owner + claim counter, with a lease) is what should prevent it; this file
 * reads the evidence in the service logs.
 *
 * The observable: the engine's type worker logs one line when it launches a run of a claimed object and one
 * when that run is over (debug level, `core/src/state/typeWorker.ts`):
 *
 *   {"level":20,"time":1764180000123,"objectType":"managed-host","objectId":"host-1","owner":"<processorId>",
 *    "claim":7,"msg":"run started"}
 *   {"level":20,"time":1764180000456,"objectType":"managed-host","objectId":"host-1","owner":"<processorId>",
 *    "claim":7,"workDoneAt":1764180000440,"msg":"run ended"}
 *
 * `workDoneAt` is when the run's load and handler were over, before it wrote its outcome and released the claim:
 * another replica may claim the object as soon as that release commits, before this busy process logs the line.
 * `owner` and `claim` are the claim's owner and counter: together they name one run. A run covers the load, the
 * handler and the final write; after a handler timeout it ends only when the handler really returned. Two runs
 * of one object with overlapping [started, ended] intervals are an overlap; a run without an end line ends when
 * its process died (SIGKILL), else it is still running.
 *
 * Evidence after the fact, from lines the engine logs at info/warn: "claim lost while the handler ran" (a
 * handler's claim was taken over while it ran: an overlap happened) and "took over a claim whose lease expired"
 * naming a previous owner that was still alive (an overlap may have happened).
 */

export const RUN_STARTED = "run started";
export const RUN_ENDED = "run ended";
const CLAIM_LOST = "claim lost while the handler ran; its result is discarded";
const TAKEOVER = "took over a claim whose lease expired";
const HANDLER_TIMEOUT = "handler timed out; its result is discarded";

/** A line as the watch needs it: its JSON, and which process printed it. */
export interface ObservedLine {
  readonly json: Record<string, unknown> | undefined;
  readonly process: { readonly name: string };
}

/** A service process as the report needs it: its engine's owner id, and when it died (if it did). */
export interface ObservedProcess {
  readonly name: string;
  readonly processorId: string | undefined;
  /** When it was SIGKILLed or seen gone; undefined while it runs. */
  readonly diedAt: number | undefined;
}

/** One run: from its "run started" line to its "run ended" line (or its process's death). */
export interface HandlerRun {
  readonly objectType: string;
  readonly objectId: string;
  readonly owner: string;
  readonly claim: number;
  readonly process: string;
  readonly start: number;
  end: number | undefined;
}

export interface Overlap {
  readonly objectType: string;
  readonly objectId: string;
  readonly first: HandlerRun;
  readonly second: HandlerRun;
  /** When the first run ended (undefined: it never did, as far as the logs show). */
  readonly firstEnd: number | undefined;
}

/** An engine line about one object's claim. */
export interface ClaimEvent {
  readonly process: string;
  readonly time: number;
  readonly objectType: string;
  readonly objectId: string;
  readonly previousOwner?: string;
}

export interface OverlapReport {
  /** "run started" lines seen: 0 means the engine did not write them (log level above debug?): `overlaps` saw nothing. */
  readonly handlerRuns: number;
  readonly overlaps: Overlap[];
  /** Handlers whose claim was taken over while they ran: each is an overlap. */
  readonly lostClaims: ClaimEvent[];
  /** Takeovers of a claim whose owner was alive then: its handler may still have been running. */
  readonly liveTakeovers: ClaimEvent[];
  /** Every takeover of an expired claim (after a kill: expected). */
  readonly takeovers: ClaimEvent[];
  /** Handlers that ran past `handlerTimeoutMs`. */
  readonly timeouts: number;
}

/** Collects the evidence from every line of every service process of a site. */
export class OverlapWatch {
  private readonly runs = new Map<string, HandlerRun>();
  private readonly lostClaims: ClaimEvent[] = [];
  private readonly takeovers: ClaimEvent[] = [];
  private timeouts = 0;

  observe(line: ObservedLine): void {
    const json = line.json;
    if (!json || typeof json.msg !== "string") return;
    const time = typeof json.time === "number" ? json.time : Date.now();
    const objectType = typeof json.objectType === "string" ? json.objectType : undefined;
    const objectId = typeof json.objectId === "string" ? json.objectId : undefined;
    if (!objectType || !objectId) return;
    switch (json.msg) {
      case RUN_STARTED:
      case RUN_ENDED: {
        const owner = typeof json.owner === "string" ? json.owner : undefined;
        const claim = typeof json.claim === "number" ? json.claim : undefined;
        if (owner === undefined || claim === undefined) return;
        const key = runKey(objectType, objectId, owner, claim);
        if (json.msg === RUN_STARTED) {
          this.runs.set(key, {
            objectType,
            objectId,
            owner,
            claim,
            process: line.process.name,
            start: time,
            end: undefined,
          });
        } else {
          const run = this.runs.get(key);
          // The run's work ended when it says (before its release committed), not when the line was written.
          if (run) run.end = typeof json.workDoneAt === "number" ? json.workDoneAt : time;
        }
        return;
      }
      case CLAIM_LOST:
        this.lostClaims.push({ process: line.process.name, time, objectType, objectId });
        return;
      case TAKEOVER:
        this.takeovers.push({
          process: line.process.name,
          time,
          objectType,
          objectId,
          ...(typeof json.previousOwner === "string" ? { previousOwner: json.previousOwner } : {}),
        });
        return;
      case HANDLER_TIMEOUT:
        this.timeouts++;
        return;
    }
  }

  /** What the lines show, given each process's owner id and death (a dead process runs no handler). */
  report(processes: readonly ObservedProcess[]): OverlapReport {
    const diedAt = new Map<string, number | undefined>();
    for (const serve of processes) if (serve.processorId) diedAt.set(serve.processorId, serve.diedAt);
    const endOf = (run: HandlerRun): number | undefined => run.end ?? diedAt.get(run.owner);
    const byObject = new Map<string, HandlerRun[]>();
    for (const run of this.runs.values()) {
      const key = `${run.objectType}\u0000${run.objectId}`;
      const runs = byObject.get(key);
      if (runs) runs.push(run);
      else byObject.set(key, [run]);
    }
    const overlaps: Overlap[] = [];
    for (const runs of byObject.values()) {
      runs.sort((a, b) => a.start - b.start);
      for (let i = 0; i < runs.length; i++) {
        const first = runs[i] as HandlerRun;
        const firstEnd = endOf(first);
        for (let j = i + 1; j < runs.length; j++) {
          const second = runs[j] as HandlerRun;
          // Sorted by start: once one starts after the first ended, the later ones do too.
          if (firstEnd !== undefined && second.start >= firstEnd) break;
          overlaps.push({ objectType: first.objectType, objectId: first.objectId, first, second, firstEnd });
        }
      }
    }
    const liveTakeovers = this.takeovers.filter((takeover) => {
      if (!takeover.previousOwner || !diedAt.has(takeover.previousOwner)) return false;
      const died = diedAt.get(takeover.previousOwner);
      // Its own expired claim (a final write that failed): no other handler of it can be running.
      const taker = processes.find((serve) => serve.name === takeover.process);
      if (taker?.processorId === takeover.previousOwner) return false;
      return died === undefined || died > takeover.time;
    });
    return {
      handlerRuns: this.runs.size,
      overlaps,
      lostClaims: [...this.lostClaims],
      liveTakeovers,
      takeovers: [...this.takeovers],
      timeouts: this.timeouts,
    };
  }
}

/** The failure lines of a report (empty when nothing overlapped). */
export function overlapFailures(report: OverlapReport): string[] {
  const failures: string[] = [];
  for (const overlap of report.overlaps.slice(0, 10)) {
    const { first, second } = overlap;
    failures.push(
      `handler overlap on ${overlap.objectType} ${overlap.objectId}: ${first.process} (claim ${first.claim}) ran ` +
        `from ${iso(first.start)} to ${overlap.firstEnd === undefined ? "(never finished)" : iso(overlap.firstEnd)}, ` +
        `${second.process} (claim ${second.claim}) started at ${iso(second.start)}`,
    );
  }
  if (report.overlaps.length > 10)
    failures.push(`… and ${report.overlaps.length - 10} more handler overlaps`);
  for (const lost of report.lostClaims.slice(0, 10)) {
    failures.push(
      `handler overlap on ${lost.objectType} ${lost.objectId}: ${lost.process} lost its claim while its handler ran (${iso(lost.time)})`,
    );
  }
  if (report.lostClaims.length > 10) failures.push(`… and ${report.lostClaims.length - 10} more lost claims`);
  for (const takeover of report.liveTakeovers.slice(0, 10)) {
    failures.push(
      `possible handler overlap on ${takeover.objectType} ${takeover.objectId}: ${takeover.process} took over ` +
        `the claim of ${takeover.previousOwner}, still alive then (${iso(takeover.time)})`,
    );
  }
  return failures;
}

function runKey(objectType: string, objectId: string, owner: string, claim: number): string {
  return `${objectType}\u0000${objectId}\u0000${owner}\u0000${claim}`;
}

function iso(time: number): string {
  return new Date(time).toISOString().slice(11, 23);
}
