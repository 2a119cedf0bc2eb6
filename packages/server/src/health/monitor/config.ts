import { isAbsolute, resolve } from "node:path";
import { InvalidArgumentError } from "@racksmith/core";
import { Ajv, type SchemaObject } from "ajv";
// Not config/index.ts: it loads config/schema.ts, which loads this file.
import { sectionSchemaProblems } from "../../config/sectionProblems.js";

/** The `monitor` config section as written; `resolveMonitorConfig` applies the defaults. */
export interface MonitorConfig {
  enabled?: boolean;
  sensorIntervalMs?: number;
  firmwareIntervalMs?: number;
  eventLogIntervalMs?: number;
  eventLogDir?: string;
  concurrency?: number;
  jitterMs?: number;
}

export interface ResolvedMonitorConfig {
  enabled: boolean;
  sensorIntervalMs: number;
  firmwareIntervalMs: number;
  eventLogIntervalMs: number;
  /** Absolute; undefined: event logs are not collected. */
  eventLogDir: string | undefined;
  concurrency: number;
  jitterMs: number;
}

const MINUTE = 60_000;

/** NICo's cadence: sensors every minute, event logs every 5 minutes; firmware changes rarely. */
export const DEFAULT_MONITOR_CONFIG: Readonly<ResolvedMonitorConfig> = Object.freeze({
  enabled: true,
  sensorIntervalMs: MINUTE,
  firmwareIntervalMs: 30 * MINUTE,
  eventLogIntervalMs: 5 * MINUTE,
  eventLogDir: undefined,
  concurrency: 20,
  jitterMs: 10_000,
});

const D = DEFAULT_MONITOR_CONFIG;
// Defaults live in the descriptions, not as `default` keywords: the loader would fill them into the section,
// and `resolveMonitorConfig` is the one place that applies them.
const integer = (minimum: number, description: string, value: number): SchemaObject => ({
  type: "integer",
  minimum,
  description: `${description} Default ${value}.`,
});

/** The `monitor` config section; every key documented with its default. */
export const MONITOR_CONFIG_SCHEMA: SchemaObject = {
  description:
    "BMC monitoring (hardware health): sensors, firmware inventory and event logs of every host and DPU BMC.",
  type: "object",
  additionalProperties: false,
  default: {},
  properties: {
    enabled: {
      type: "boolean",
      description: `Run the monitor inside the service (\`racksmith monitor\` runs it on its own regardless). Default ${D.enabled}.`,
    },
    sensorIntervalMs: integer(1_000, "How often each BMC's sensors are read (ms).", D.sensorIntervalMs),
    firmwareIntervalMs: integer(
      1_000,
      "How often each BMC's firmware inventory is read (ms).",
      D.firmwareIntervalMs,
    ),
    eventLogIntervalMs: integer(
      1_000,
      "How often new event log entries are fetched from each BMC (ms).",
      D.eventLogIntervalMs,
    ),
    eventLogDir: {
      type: "string",
      minLength: 1,
      description:
        "Directory for event log files, one `<machineId>.jsonl` per machine, for a log shipper (relative to the config file). Default none: event logs are not collected.",
    },
    concurrency: integer(1, "BMCs polled at once (each BMC's own request cap still applies).", D.concurrency),
    jitterMs: integer(
      0,
      "Random extra wait (up to this, ms) added to every pass so replicas and restarts spread out.",
      D.jitterMs,
    ),
  },
};

const validate = new Ajv({ allErrors: true, strict: false }).compile<MonitorConfig>(MONITOR_CONFIG_SCHEMA);

/** Every problem of the `monitor` section, each naming its key; empty when it resolves. */
export function monitorConfigProblems(config: MonitorConfig = {}): string[] {
  return validate(config) ? [] : sectionSchemaProblems("monitor", validate.errors);
}

/** Applies the defaults; `eventLogDir` is resolved against `baseDir` (the config file's folder). */
export function resolveMonitorConfig(
  config: MonitorConfig = {},
  baseDir = process.cwd(),
): ResolvedMonitorConfig {
  const problems = monitorConfigProblems(config);
  if (problems.length > 0) throw new InvalidArgumentError(`invalid monitor config: ${problems.join("; ")}`);
  const defined = Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined));
  const dir = config.eventLogDir;
  return {
    ...D,
    ...defined,
    eventLogDir: dir === undefined ? undefined : isAbsolute(dir) ? dir : resolve(baseDir, dir),
  };
}
