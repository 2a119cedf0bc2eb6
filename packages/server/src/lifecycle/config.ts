import { InvalidArgumentError } from "@racksmith/core";
import { Ajv, type SchemaObject } from "ajv";
// Not config/index.ts: it loads config/schema.ts, which loads this file.
import { sectionSchemaProblems } from "../config/sectionProblems.js";
import { MANAGED_HOST_STATE_TAGS, type ManagedHostStateTag } from "./states.js";

/** The `lifecycle` config section as written; `resolveLifecycleConfig` applies the defaults. */
export interface LifecycleConfig {
  failureRetryTimeMs?: number;
  rebootBackoffFactor?: number;
  maxRebootIntervalMs?: number;
  maxRebootCycles?: number;
  maxRebootsPerMinute?: number;
  maxRebootsInFlight?: number;
  rebootSettleMs?: number;
  pauseRebootsAboveDatabaseLatencyMs?: number;
  pauseRebootsAboveEventLoopDelayMs?: number;
  powerOffEveryNthCycle?: number;
  powerDownWaitMs?: number;
  bmcPollIntervalMs?: number;
  maxRetries?: number;
  retryIntervalMs?: number;
  jobTimeoutMs?: number;
  dpuSecureBoot?: boolean;
  dpuHeartbeatTimeoutMs?: number;
  hostAgentValidation?: boolean;
  validationRunners?: string[];
  slaMs?: Partial<Record<ManagedHostStateTag, number>>;
}

export interface ResolvedLifecycleConfig {
  failureRetryTimeMs: number;
  rebootBackoffFactor: number;
  maxRebootIntervalMs: number;
  maxRebootCycles: number;
  maxRebootsPerMinute: number;
  maxRebootsInFlight: number;
  rebootSettleMs: number;
  pauseRebootsAboveDatabaseLatencyMs: number;
  pauseRebootsAboveEventLoopDelayMs: number;
  powerOffEveryNthCycle: number;
  powerDownWaitMs: number;
  bmcPollIntervalMs: number;
  maxRetries: number;
  retryIntervalMs: number;
  jobTimeoutMs: number;
  dpuSecureBoot: boolean;
  dpuHeartbeatTimeoutMs: number;
  hostAgentValidation: boolean;
  validationRunners: string[];
  /** SLA per top-level state (ms); absent: no SLA. 0: always above SLA (failed). */
  slaMs: Partial<Record<ManagedHostStateTag, number>>;
}

const MINUTE = 60_000;

/**
 * NICo's defaults (a first retry after 30 min while a wait does not progress, give up after 15 cycles), with
 * the interval doubling up to 4 h, at most 600 reboots a minute site-wide, and reboot timers paused while the
 * database takes over 2 s to answer or the event loop runs 1 s late.
 */
export const DEFAULT_LIFECYCLE_CONFIG: Readonly<ResolvedLifecycleConfig> = Object.freeze({
  failureRetryTimeMs: 30 * MINUTE,
  rebootBackoffFactor: 2,
  maxRebootIntervalMs: 240 * MINUTE,
  maxRebootCycles: 15,
  maxRebootsPerMinute: 600,
  maxRebootsInFlight: 0,
  rebootSettleMs: 5 * MINUTE,
  pauseRebootsAboveDatabaseLatencyMs: 2_000,
  pauseRebootsAboveEventLoopDelayMs: 1_000,
  powerOffEveryNthCycle: 4,
  powerDownWaitMs: 2 * MINUTE,
  bmcPollIntervalMs: 10_000,
  maxRetries: 3,
  retryIntervalMs: MINUTE,
  jobTimeoutMs: 5 * MINUTE,
  dpuSecureBoot: false,
  dpuHeartbeatTimeoutMs: 5 * MINUTE,
  hostAgentValidation: false,
  validationRunners: [],
  slaMs: {
    dpuDiscovering: 30 * MINUTE,
    dpuInit: 30 * MINUTE,
    hostInit: 30 * MINUTE,
    // NICo's: the inventory and the check; no SLA runs while a host waits for an operator's SKU work.
    bomValidating: 5 * MINUTE,
    validation: 30 * MINUTE,
    discovered: 30 * MINUTE,
    assigned: 30 * MINUTE,
    waitingForCleanup: 30 * MINUTE,
    failed: 0,
    forceDeletion: 5 * MINUTE,
  },
});

const D = DEFAULT_LIFECYCLE_CONFIG;
const integer = (minimum: number, description: string, value: number): SchemaObject => ({
  type: "integer",
  minimum,
  description: `${description} Default ${value}.`,
});

function slaSchema(state: ManagedHostStateTag): SchemaObject {
  const value = D.slaMs[state];
  return {
    type: "integer",
    minimum: 0,
    description: `Time a host may spend in ${state} (ms). Default ${value === undefined ? "none" : value}.`,
  };
}

/** The `lifecycle` config section; every key documented with its default. */
export const LIFECYCLE_CONFIG_SCHEMA: SchemaObject = {
  description: "How managed hosts move from ingestion to Ready and back (timings, retries, validation).",
  type: "object",
  additionalProperties: false,
  default: {},
  properties: {
    failureRetryTimeMs: integer(
      1_000,
      "While a wait does not progress, reboot the machine after this long (ms); later retries back off.",
      D.failureRetryTimeMs,
    ),
    rebootBackoffFactor: {
      type: "number",
      minimum: 1,
      description: `Each retry reboot waits this many times longer than the one before (1: a fixed period). Default ${D.rebootBackoffFactor}.`,
    },
    maxRebootIntervalMs: integer(
      1_000,
      "The longest wait between two retry reboots (ms).",
      D.maxRebootIntervalMs,
    ),
    maxRebootCycles: integer(
      1,
      "Reboot cycles before a host is Failed (manual intervention).",
      D.maxRebootCycles,
    ),
    maxRebootsPerMinute: integer(
      0,
      "Site-wide: reboots a wait may order per minute; more are held back until the minute has room (0: no cap).",
      D.maxRebootsPerMinute,
    ),
    maxRebootsInFlight: integer(
      0,
      "Site-wide: reboots within the last rebootSettleMs; more are held back (0: no cap).",
      D.maxRebootsInFlight,
    ),
    rebootSettleMs: integer(
      1_000,
      "How long a reboot counts as in flight for maxRebootsInFlight (ms).",
      D.rebootSettleMs,
    ),
    pauseRebootsAboveDatabaseLatencyMs: integer(
      0,
      "Retry reboot timers stand still while a trivial database query takes longer than this (ms; 0: never).",
      D.pauseRebootsAboveDatabaseLatencyMs,
    ),
    pauseRebootsAboveEventLoopDelayMs: integer(
      0,
      "Retry reboot timers stand still while the service's event loop runs this late (ms; 0: never).",
      D.pauseRebootsAboveEventLoopDelayMs,
    ),
    powerOffEveryNthCycle: integer(
      2,
      "Every Nth reboot cycle powers the host off and on instead of restarting it.",
      D.powerOffEveryNthCycle,
    ),
    powerDownWaitMs: integer(0, "How long a host stays off in a power cycle (ms).", D.powerDownWaitMs),
    bmcPollIntervalMs: integer(
      100,
      "A host waiting on its BMC (a job, BIOS, boot order, lockdown) is looked at again this often (ms).",
      D.bmcPollIntervalMs,
    ),
    maxRetries: integer(
      1,
      "Attempts of a BMC step that fails (machine setup, BIOS job, boot order) before the host is Failed.",
      D.maxRetries,
    ),
    retryIntervalMs: integer(0, "Wait between attempts of a failed BMC step (ms).", D.retryIntervalMs),
    jobTimeoutMs: integer(
      1,
      "How long a BIOS or boot-order job may take before it counts as failed (ms).",
      D.jobTimeoutMs,
    ),
    dpuSecureBoot: {
      type: "boolean",
      description: `Turn UEFI secure boot on for DPUs during DPU discovery (off otherwise). Default ${D.dpuSecureBoot}.`,
    },
    dpuHeartbeatTimeoutMs: integer(
      1_000,
      "A DPU agent report older than this counts as missing (HeartbeatTimeout) (ms).",
      D.dpuHeartbeatTimeoutMs,
    ),
    hostAgentValidation: {
      type: "boolean",
      description: `Validation also waits for the host agent's ValidationCompleted (it runs the tests on the host). Default ${D.hostAgentValidation}.`,
    },
    validationRunners: {
      type: "array",
      items: { type: "string", minLength: 1 },
      uniqueItems: true,
      description:
        "Validation runners (registered by plugins) run at discovery and after cleanup; none: validation passes straight through. Default none.",
    },
    slaMs: {
      type: "object",
      additionalProperties: false,
      description:
        "Time a host may spend in a state before it counts as above SLA (ms), per top-level state; 0: always above. Defaults: 30 min for every working state, 0 for failed, none for created and ready.",
      properties: Object.fromEntries(MANAGED_HOST_STATE_TAGS.map((state) => [state, slaSchema(state)])),
    },
  },
};

const validate = new Ajv({ allErrors: true, strict: false }).compile<LifecycleConfig>(
  LIFECYCLE_CONFIG_SCHEMA,
);

/** Every problem of the `lifecycle` section, each naming its key; empty when it resolves. */
export function lifecycleConfigProblems(config: LifecycleConfig = {}): string[] {
  return validate(config) ? [] : sectionSchemaProblems("lifecycle", validate.errors);
}

/** Applies the defaults; throws InvalidArgumentError naming every bad key. */
export function resolveLifecycleConfig(config: LifecycleConfig = {}): ResolvedLifecycleConfig {
  const problems = lifecycleConfigProblems(config);
  if (problems.length > 0) throw new InvalidArgumentError(`invalid lifecycle config: ${problems.join("; ")}`);
  const defined = Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined));
  return {
    ...D,
    ...defined,
    validationRunners: config.validationRunners ?? [],
    slaMs: { ...D.slaMs, ...(config.slaMs ?? {}) },
  };
}
