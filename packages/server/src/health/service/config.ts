import { InvalidArgumentError } from "@racksmith/core";
import { Ajv, type SchemaObject } from "ajv";
// Not config/index.ts: it loads config/schema.ts, which loads this file.
import { sectionSchemaProblems } from "../../config/sectionProblems.js";
import type { SensorAlertMode } from "../aggregate.js";
import { HEALTH_HISTORY_LIMIT } from "../history.js";

/** The `health` config section as written; `resolveHealthConfig` applies the defaults. */
export interface HealthConfig {
  sensorAlerts?: SensorAlertMode;
  dpuHeartbeatTimeoutMs?: number;
  historyLimit?: number;
  unchangedReportRefreshMs?: number;
}

export interface ResolvedHealthConfig {
  sensorAlerts: SensorAlertMode;
  dpuHeartbeatTimeoutMs: number;
  historyLimit: number;
  unchangedReportRefreshMs: number;
}

export const DEFAULT_HEALTH_CONFIG: Readonly<ResolvedHealthConfig> = Object.freeze({
  sensorAlerts: "enabled",
  dpuHeartbeatTimeoutMs: 5 * 60_000,
  historyLimit: HEALTH_HISTORY_LIMIT,
  unchangedReportRefreshMs: 5 * 60_000,
});

const D = DEFAULT_HEALTH_CONFIG;

/**
 * The `health` config section; every key documented with its default. The defaults are applied by
 * `resolveHealthConfig`, not by the schema, so the loaded config keeps what the operator wrote.
 */
export const HEALTH_CONFIG_SCHEMA: SchemaObject = {
  description: "How a managed host's aggregate health is derived and how much of its history is kept.",
  type: "object",
  additionalProperties: false,
  default: {},
  properties: {
    sensorAlerts: {
      type: "string",
      enum: ["disabled", "monitorOnly", "enabled"],
      description: `BMC sensor rollups (sources hardware-health*): disabled = ignored, monitorOnly = shown without classifications (no effect), enabled = acted on. Default ${D.sensorAlerts}.`,
    },
    dpuHeartbeatTimeoutMs: {
      type: "integer",
      minimum: 1_000,
      description: `A DPU agent report older than this counts as missing: alert HeartbeatTimeout (ms). Default ${D.dpuHeartbeatTimeoutMs}.`,
    },
    historyLimit: {
      type: "integer",
      minimum: 1,
      description: `Health-history rows kept per host (one row per change of the aggregate's content). Default ${D.historyLimit}.`,
    },
    unchangedReportRefreshMs: {
      type: "integer",
      minimum: 0,
      description: `A source's report (BMC sensors, a probe's) that says what the last one stored for its machine said is stored again (and the host's aggregate recomputed) at most this often (ms); a change is stored at once, and reading a host's health derives it afresh. 0 stores every report. Default ${D.unchangedReportRefreshMs}.`,
    },
  },
};

const validate = new Ajv({ allErrors: true, strict: false }).compile<HealthConfig>(HEALTH_CONFIG_SCHEMA);

/** Every problem of the `health` section, each naming its key; empty when it resolves. */
export function healthConfigProblems(config: HealthConfig = {}): string[] {
  return validate(config) ? [] : sectionSchemaProblems("health", validate.errors);
}

/** Applies the defaults; throws InvalidArgumentError naming every bad key. */
export function resolveHealthConfig(config: HealthConfig = {}): ResolvedHealthConfig {
  const problems = healthConfigProblems(config);
  if (problems.length > 0) throw new InvalidArgumentError(`invalid health config: ${problems.join("; ")}`);
  const defined = Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined));
  return { ...D, ...defined };
}
