import type { MachineInventory, ValidationResult } from "./machineInventory.js";

/** Why a validation runs: when a host is discovered, after a tenant's cleanup, or on an operator's request. */
export const VALIDATION_RUN_CONTEXTS = ["discovery", "cleanup", "onDemand"] as const;
export type ValidationRunContext = (typeof VALIDATION_RUN_CONTEXTS)[number];

export interface ValidationRequest {
  /** The managed host. */
  machineId: string;
  context: ValidationRunContext;
  /** The host agent's inventory of the host (null before its first discovery). */
  inventory: MachineInventory | null;
  /** Aborted when the lifecycle gives up on the run (handler timeout, shutdown). */
  signal: AbortSignal;
}

/** What one runner found: a verdict and one entry per test. */
export type ValidationRunResult = Omit<ValidationResult, "context" | "runBy">;

/**
 * A validation test runner (SKU/BOM checks, host test scripts…), registered by a plugin. The lifecycle runs
 * every configured runner at discovery and after cleanup; a host passes when every runner passes. A runner
 * must be idempotent: the lifecycle may call it again for the same context after a crash.
 */
export interface ValidationRunner {
  /** Unique, kebab-case. */
  readonly name: string;
  readonly description?: string;
  /** Contexts it runs in (default: all). */
  readonly contexts?: readonly ValidationRunContext[];
  run(request: ValidationRequest): Promise<ValidationRunResult>;
}
