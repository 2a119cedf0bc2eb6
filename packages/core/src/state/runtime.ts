import type { Logger } from "../logging/index.js";
import type { ResolvedEngineConfig } from "./config.js";
import type { EngineDatabase } from "./database.js";
import type { FinalWriteBatcher } from "./finalWriteBatcher.js";
import type { EngineMetrics } from "./metrics.js";
import type { StateMachine, TaggedState } from "./types.js";

/** Everything the per-type worker, enqueuer and runs share. */
export interface MachineRuntime {
  readonly machine: StateMachine;
  readonly database: EngineDatabase;
  readonly config: ResolvedEngineConfig;
  readonly metrics: EngineMetrics;
  readonly logger: Logger;
  readonly clock: () => Date;
  /** The NOTIFY channel that wakes workers; the payload is the object type. */
  readonly channel: string;
  /** This engine's claim owner id. */
  readonly owner: string;
  /** The type's final writes without deferred writes, in batches when several are asked for at once. */
  readonly writes: FinalWriteBatcher;
  /** Enqueues an object (of any type) — used for a handler's follow-up enqueues after commit. */
  readonly enqueue: (objectType: string, objectId: string) => Promise<void>;
}

/** The machine's label for a state; falls back to the tag if the machine's function fails. */
export function stateLabel(machine: StateMachine, state: TaggedState): string {
  try {
    return machine.stateLabel?.(state) ?? state.state;
  } catch {
    return state.state;
  }
}

/** The machine's SLA for a state in ms, or null; a throwing SLA function counts as no SLA. */
export function stateSla(machine: StateMachine, state: TaggedState): number | null {
  try {
    return machine.sla?.(state) ?? null;
  } catch {
    return null;
  }
}

/** A one-line reason for logs. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
