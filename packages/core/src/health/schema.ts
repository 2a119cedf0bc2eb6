import { Ajv } from "ajv";
import { InvalidArgumentError } from "../errors/index.js";
import { formatSchemaErrors, keyPath } from "../errors/schemaErrors.js";
import { sortedSet } from "./merge.js";
import type { HealthProbeAlert, HealthReport } from "./report.js";

const nonEmpty = { type: "string", minLength: 1 } as const;
const timestamp = { type: "string", minLength: 1, description: "ISO 8601 date-time" } as const;

/** JSON form of a HealthReport (override files, REST bodies). `successes` and `alerts` may be left out. */
export const HEALTH_REPORT_JSON_SCHEMA = {
  $id: "https://racksmith.dev/schemas/health-report.json",
  type: "object",
  additionalProperties: false,
  required: ["source"],
  properties: {
    source: nonEmpty,
    triggeredBy: nonEmpty,
    observedAt: timestamp,
    successes: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id"],
        properties: { id: nonEmpty, target: nonEmpty },
      },
    },
    alerts: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id", "message"],
        properties: {
          id: nonEmpty,
          target: nonEmpty,
          inAlertSince: timestamp,
          message: { type: "string" },
          tenantMessage: { type: "string" },
          classifications: { type: "array", items: nonEmpty },
        },
      },
    },
  },
} as const;

const validate = new Ajv({ allErrors: true, strict: false }).compile(HEALTH_REPORT_JSON_SCHEMA);

const KEYS = {
  report: Object.keys(HEALTH_REPORT_JSON_SCHEMA.properties),
  success: Object.keys(HEALTH_REPORT_JSON_SCHEMA.properties.successes.items.properties),
  alert: Object.keys(HEALTH_REPORT_JSON_SCHEMA.properties.alerts.items.properties),
};

/** Which keys are allowed at a path, for "did you mean" hints. */
function allowedKeys(instancePath: string): string[] {
  if (/^\/successes\/\d+$/.test(instancePath)) return KEYS.success;
  if (/^\/alerts\/\d+$/.test(instancePath)) return KEYS.alert;
  return instancePath === "" ? KEYS.report : [];
}

/**
 * Checks a HealthReport in JSON form and returns it normalised (missing lists empty, timestamps as ISO
 * strings in UTC, classifications as a sorted set). Throws InvalidArgumentError naming `where` (a file, a
 * request) and every bad field, e.g. `maintenance.json: alerts[0].id: must NOT have fewer than 1 characters`.
 */
export function parseHealthReport(json: unknown, where: string): HealthReport {
  const problems = validate(json)
    ? timestampProblems(json as HealthReport)
    : formatSchemaErrors(validate.errors ?? [], allowedKeys);
  if (problems.length > 0) {
    throw new InvalidArgumentError(`${where}: invalid health report: ${problems.join("; ")}`, {
      details: { where, problems },
    });
  }
  return normalise(json as Partial<HealthReport> & { source: string });
}

/** RFC 3339: a date, a time and an explicit offset, so an instant never depends on the reader's zone. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

function timestampProblems(report: HealthReport): string[] {
  const problems: string[] = [];
  const check = (value: string | undefined, path: string) => {
    if (value !== undefined && (!DATE_TIME.test(value) || Number.isNaN(Date.parse(value))))
      problems.push(`${keyPath(path)}: ${JSON.stringify(value)} is not an ISO 8601 date-time`);
  };
  check(report.observedAt, "/observedAt");
  (report.alerts ?? []).forEach((alert, index) => {
    check(alert.inAlertSince, `/alerts/${index}/inAlertSince`);
  });
  return problems;
}

function normalise(report: Partial<HealthReport> & { source: string }): HealthReport {
  return {
    source: report.source,
    ...(report.triggeredBy !== undefined ? { triggeredBy: report.triggeredBy } : {}),
    ...(report.observedAt !== undefined ? { observedAt: iso(report.observedAt) } : {}),
    successes: (report.successes ?? []).map((success) => ({
      id: success.id,
      ...(success.target !== undefined ? { target: success.target } : {}),
    })),
    alerts: (report.alerts ?? []).map(normaliseAlert),
  };
}

function normaliseAlert(alert: HealthProbeAlert): HealthProbeAlert {
  return {
    id: alert.id,
    ...(alert.target !== undefined ? { target: alert.target } : {}),
    ...(alert.inAlertSince !== undefined ? { inAlertSince: iso(alert.inAlertSince) } : {}),
    message: alert.message,
    ...(alert.tenantMessage !== undefined ? { tenantMessage: alert.tenantMessage } : {}),
    classifications: sortedSet(alert.classifications ?? []),
  };
}

function iso(value: string): string {
  return new Date(value).toISOString();
}
