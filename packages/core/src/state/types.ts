import type { Kysely, Transaction } from "kysely";
import type { Logger } from "../logging/index.js";
import type { EngineTables } from "./database.js";

/** An object's lifecycle state: JSON with a string tag, e.g. `{ state: "assigned", instanceState: "…" }`. */
export type TaggedState = { state: string };

/** What a handler decided. Build one with `transition`, `wait`, `doNothing` or `deleted`. */
export type Outcome<S extends TaggedState = TaggedState> =
  | { readonly kind: "transition"; readonly next: S }
  | { readonly kind: "wait"; readonly reason: string; readonly recheckAfterMs?: number }
  | { readonly kind: "doNothing" }
  | { readonly kind: "deleted" };

export type DeferredWrite = (trx: Transaction<EngineTables>) => Promise<void>;

export interface HandlerContext<S extends TaggedState = TaggedState> {
  readonly id: string;
  readonly state: S;
  /** Version of the state the handler runs in; the final write succeeds only if it is still current. */
  readonly version: number;
  readonly enteredAt: Date;
  readonly timeInStateMs: number;
  /** Aborted when the handler timeout elapses (or the engine abandons the run); pass it to I/O. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /** Queues a write for the final transaction: applied with the outcome, never on error, timeout or stale. */
  defer(write: DeferredWrite): void;
  /** Enqueues another object once the final transaction has committed. */
  enqueue(objectType: string, id: string): void;
}

export interface HandlerInput<S extends TaggedState, O> {
  readonly id: string;
  readonly state: S;
  readonly object: O;
  readonly context: HandlerContext<S>;
}

/**
 * A lifecycle: which objects it drives, how to read one, and what to do in each state. `handle` must be
 * idempotent: it may run again for the same state (periodic re-runs, retries after errors or crashes).
 */
export interface StateMachine<S extends TaggedState = TaggedState, O = unknown> {
  readonly objectType: string;
  /** Reads the object inside the short snapshot transaction; undefined when it no longer exists. */
  load(id: string, db: Kysely<EngineTables>): Promise<O | undefined>;
  /**
   * True when `load` reads with one statement: a statement is its own snapshot, so the engine opens no
   * transaction around it (two round trips fewer per run). Default false.
   */
  readonly loadsInOneStatement?: boolean;
  handle(input: HandlerInput<S, O>): Promise<Outcome<S>>;
  /** How long an object may stay in this state before it counts as above SLA (ms); undefined = no SLA. */
  sla?(state: S): number | undefined;
  /**
   * Objects that have no SLA right now whatever their state (a host whose health says
   * ExcludeFromStateMachineSla), among `objectIds`, or all of them when it is undefined.
   */
  slaExempt?(db: Kysely<EngineTables>, objectIds?: readonly string[]): Promise<ReadonlySet<string>>;
  /** Metrics/display label, e.g. "assigned/waitingForNetworkConfig"; defaults to the `state` tag. */
  stateLabel?(state: S): string;
}

export type OutcomeKind = "transition" | "wait" | "doNothing" | "error" | "deleted";

/** The last outcome as stored with the object. */
export interface StoredOutcome {
  kind: OutcomeKind;
  reason?: string;
  error?: { code: string; message: string };
  at: string;
}

/** One state an object was in: when it entered, its SLA, and how it ended. */
export interface HistoryEntryView {
  state: TaggedState;
  version: number;
  enteredAt: string;
  /** The SLA of that state; null: none, or the object is exempt. */
  slaMs: number | null;
  /** The last outcome recorded in the state when it was left (the wait it ended, an error); null while in it. */
  exitOutcome: StoredOutcome | null;
}

export interface ObjectStateView {
  objectType: string;
  objectId: string;
  state: TaggedState;
  stateLabel: string;
  version: number;
  enteredAt: string;
  timeInStateMs: number;
  sla: { slaMs: number | null; aboveSla: boolean };
  outcome: StoredOutcome | null;
  /**
   * Newest first, each with the SLA of its state (null: none, or the object is exempt). Empty in
   * `listObjects` results.
   */
  history: HistoryEntryView[];
}
