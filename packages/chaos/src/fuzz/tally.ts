import { truncate } from "./mutations.js";

/** What one request came back with, as the tally counts it. */
export type Outcome =
  /** An HTTP status, or a gRPC status code with its name. */
  | { kind: "rest"; status: number; detail: string }
  | { kind: "grpc"; code: number; codeName: string; detail: string }
  /** No answer within the timeout: always a failure. */
  | { kind: "hang"; detail: string }
  /** The connection closed without an answer (e.g. a body refused mid-upload): counted, reported, not failed. */
  | { kind: "dropped"; detail: string }
  /** The client refused to send it (undici validates paths and headers): not counted as sent. */
  | { kind: "not-sent"; detail: string };

/** A failing kind of answer on one route or method, and the first inputs that got it. */
export interface Offender {
  /** The route (`POST /api/v1/instances`) or method (`racksmith.v1.Instances/AllocateInstance`). */
  target: string;
  /** What came back: `HTTP 500 internal: …`, `INTERNAL Error deserializing request`, `HANG …`. */
  answer: string;
  count: number;
  examples: string[];
  /** What replaying an example alone gave (hangs are replayed after the run). */
  notes?: string[];
}

const EXAMPLES_PER_OFFENDER = 3;

/** Counts answers and keeps the first offending inputs per route/method and kind of failure. */
export class Tally {
  restSent = 0;
  grpcSent = 0;
  readonly restByClass = new Map<string, number>();
  readonly grpcByCode = new Map<string, number>();
  hangs = 0;
  dropped = 0;
  notSent = 0;
  readonly routesAnswered = new Set<string>();
  readonly methodsAnswered = new Set<string>();
  private readonly offenders = new Map<string, Offender>();
  private readonly drops = new Map<string, Offender>();

  record(target: string, protocol: "rest" | "grpc", description: string, outcome: Outcome): void {
    if (outcome.kind === "not-sent") {
      this.notSent++;
      return;
    }
    if (protocol === "rest") this.restSent++;
    else this.grpcSent++;
    switch (outcome.kind) {
      case "rest": {
        this.routesAnswered.add(target);
        const statusClass = `${Math.floor(outcome.status / 100)}xx`;
        this.restByClass.set(statusClass, (this.restByClass.get(statusClass) ?? 0) + 1);
        if (outcome.status >= 500)
          this.offend(this.offenders, target, `HTTP ${outcome.status} ${outcome.detail}`, description);
        return;
      }
      case "grpc": {
        this.methodsAnswered.add(target);
        this.grpcByCode.set(outcome.codeName, (this.grpcByCode.get(outcome.codeName) ?? 0) + 1);
        if (outcome.codeName === "INTERNAL" || outcome.codeName === "UNKNOWN")
          this.offend(this.offenders, target, `${outcome.codeName} ${outcome.detail}`, description);
        return;
      }
      case "hang":
        this.hangs++;
        this.offend(this.offenders, target, `HANG ${outcome.detail}`, description);
        return;
      case "dropped":
        this.dropped++;
        this.offend(this.drops, target, `dropped ${outcome.detail}`, description);
        return;
    }
  }

  private offend(into: Map<string, Offender>, target: string, rawAnswer: string, description: string): void {
    const answer = truncate(rawAnswer, 160);
    const key = `${target}\u0000${answer}`;
    const offender = into.get(key) ?? { target, answer, count: 0, examples: [] };
    offender.count++;
    if (offender.examples.length < EXAMPLES_PER_OFFENDER) offender.examples.push(description);
    into.set(key, offender);
  }

  /** Adds a note to the offender of `target` with an answer starting `answerPrefix`. */
  annotate(target: string, answerPrefix: string, note: string): void {
    for (const offender of this.offenders.values()) {
      if (offender.target === target && offender.answer.startsWith(answerPrefix))
        offender.notes = [...(offender.notes ?? []), note];
    }
  }

  count(map: ReadonlyMap<string, number>, key: string): number {
    return map.get(key) ?? 0;
  }

  /** Every 5xx, INTERNAL/UNKNOWN and hang, grouped by route/method and answer, most frequent first. */
  failures(): Offender[] {
    return [...this.offenders.values()].sort((a, b) => b.count - a.count || a.target.localeCompare(b.target));
  }

  /** Connections closed without an answer, grouped like the failures. */
  droppedConnections(): Offender[] {
    return [...this.drops.values()].sort((a, b) => b.count - a.count || a.target.localeCompare(b.target));
  }
}
