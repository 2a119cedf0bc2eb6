import type { BmcDriver } from "../drivers/index.js";
import { InvalidArgumentError } from "../errors/index.js";
import type { HealthReport } from "./report.js";

/** What a probe looks at: the host (OS, agent), a DPU, or a BMC (of a host or a DPU: see `kind`). */
export const HEALTH_PROBE_TARGETS = ["host", "dpu", "bmc"] as const;
export type HealthProbeTarget = (typeof HEALTH_PROBE_TARGETS)[number];

/** One run of a polled probe against one machine. */
export interface HealthProbeContext {
  machineId: string;
  /** Which of the probe's targets this run is for. */
  kind: HealthProbeTarget;
  /** Aborted when the run times out or the service stops; pass it on to I/O. */
  signal: AbortSignal;
  now: Date;
  /** The machine's BMC driver, for `bmc` runs (already connected; do not close it). */
  bmc?: BmcDriver;
  /** The operator's `healthProbes.<name>` settings, when the config has any. */
  settings?: Readonly<Record<string, unknown>>;
}

/** A machine a collector watches. */
export interface HealthProbeMachine {
  machineId: string;
  kind: HealthProbeTarget;
}

/** What a continuous collector gets: it runs until `signal` aborts and publishes reports as it finds them. */
export interface HealthCollectorContext {
  signal: AbortSignal;
  /** The machines of the probe's targets, as of now (call again: hosts come and go). */
  machines(): Promise<readonly HealthProbeMachine[]>;
  /** Hands over the latest report of one machine; it replaces the previous one from this probe. */
  publish(machineId: string, report: HealthReport): void;
  settings?: Readonly<Record<string, unknown>>;
}

interface HealthProbeBase {
  /** Unique across plugins, kebab-case (`bmc-sensors`, `nvme-wear`). */
  readonly name: string;
  /** The probe ids its reports use (`BmcSensor`, …), for documentation and listings. */
  readonly ids: readonly string[];
  readonly targets: readonly HealthProbeTarget[];
  readonly description?: string;
  /** For polled probes: how often to run against each machine, unless the operator says otherwise. */
  readonly intervalMs?: number;
  /**
   * JSON Schema of the operator's `healthProbes.<name>` section, checked (defaults filled in) before the
   * service starts; without one the probe takes no settings.
   */
  readonly settingsSchema?: Readonly<Record<string, unknown>>;
}

/** Run by the core, once per machine per interval; returns the machine's report from this probe. */
export interface PolledHealthProbe extends HealthProbeBase {
  run(context: HealthProbeContext): Promise<HealthReport>;
  readonly collect?: never;
}

/** Started once; watches its machines itself (event streams, its own schedule) and publishes reports. */
export interface CollectingHealthProbe extends HealthProbeBase {
  collect(context: HealthCollectorContext): Promise<void>;
  readonly run?: never;
}

/**
 * A health probe, registered by a plugin with `registry.healthProbe(...)`. Its reports are merged into the
 * host's aggregate health like any built-in source, so classifications on its alerts (PreventAllocations, …)
 * act as if the core had raised them.
 */
export type HealthProbe = PolledHealthProbe | CollectingHealthProbe;

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** Checks a probe definition (the plugin host does it on registration); throws InvalidArgumentError. */
export function defineHealthProbe<T extends HealthProbe>(probe: T): T {
  const problems: string[] = [];
  if (!NAME.test(probe.name ?? "")) problems.push(`name ${JSON.stringify(probe.name)} must be kebab-case`);
  if (!Array.isArray(probe.ids) || probe.ids.length === 0)
    problems.push("ids must list at least one probe id");
  else if (probe.ids.some((id) => typeof id !== "string" || id.length === 0))
    problems.push("ids must be non-empty strings");
  const targets: readonly string[] = Array.isArray(probe.targets) ? probe.targets : [];
  if (targets.length === 0)
    problems.push(`targets must list at least one of ${HEALTH_PROBE_TARGETS.join(", ")}`);
  const unknown = targets.filter((t) => !(HEALTH_PROBE_TARGETS as readonly string[]).includes(t));
  if (unknown.length)
    problems.push(`unknown targets ${unknown.join(", ")} (known: ${HEALTH_PROBE_TARGETS.join(", ")})`);
  const polled = typeof probe.run === "function";
  const collecting = typeof probe.collect === "function";
  if (polled === collecting) problems.push("exactly one of run and collect must be a function");
  if (probe.intervalMs !== undefined && !(Number.isInteger(probe.intervalMs) && probe.intervalMs > 0))
    problems.push("intervalMs must be a positive integer");
  const schema: unknown = probe.settingsSchema;
  if (schema !== undefined && (typeof schema !== "object" || schema === null || Array.isArray(schema)))
    problems.push("settingsSchema must be a JSON Schema object");
  if (problems.length) {
    throw new InvalidArgumentError(`health probe ${JSON.stringify(probe.name)}: ${problems.join("; ")}`);
  }
  return probe;
}
