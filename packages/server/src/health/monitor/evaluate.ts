import type { SensorKind, SensorReading } from "@racksmith/core";
import { HEALTH_CLASSIFICATIONS } from "@racksmith/core/health";

/** What a sensor reading violates, most severe first (NICo's evaluation order). */
export const SENSOR_ALERT_KINDS = ["SensorFailure", "SensorCritical", "SensorWarning"] as const;
export type SensorAlertKind = (typeof SENSOR_ALERT_KINDS)[number];

export type SensorEvaluation =
  | { ok: true }
  | { ok: false; kind: SensorAlertKind; classifications: string[]; message: string };

const STATUS: Readonly<Record<SensorAlertKind, string>> = {
  SensorFailure: "Failure",
  SensorCritical: "Critical",
  SensorWarning: "Warning",
};

const ENTITY_TYPES: Readonly<Record<SensorKind, string>> = {
  temperature: "temperature",
  fan: "fan",
  power: "power",
  voltage: "voltage",
  current: "current",
  other: "sensor",
};

/**
 * Checks one reading against what the BMC advertises: outside the valid range (when the range is well-formed)
 * → SensorFailure, beyond a critical or fatal threshold → SensorCritical, beyond a caution threshold →
 * SensorWarning. A BMC that says the sensor is OK wins over its own thresholds (they are often stale or
 * vendor-mislabelled), and a sensor without a reading has nothing to judge.
 */
export function evaluateSensor(reading: SensorReading): SensorEvaluation {
  const value = reading.reading;
  if (value === null || !Number.isFinite(value)) return { ok: true };
  if (reading.health?.toLowerCase() === "ok") return { ok: true };
  const kind = violation(reading, value);
  if (!kind) return { ok: true };
  return {
    ok: false,
    kind,
    // A failed or critical sensor makes the host unfit for a tenant (health.sensorAlerts decides whether that
    // applies: monitorOnly strips classifications, disabled ignores the report); a warning is only shown.
    classifications:
      kind === "SensorWarning"
        ? [HEALTH_CLASSIFICATIONS.hardware, kind]
        : [HEALTH_CLASSIFICATIONS.hardware, kind, HEALTH_CLASSIFICATIONS.preventAllocations],
    message: sensorAlertMessage(reading, kind),
  };
}

function violation(reading: SensorReading, value: number): SensorAlertKind | undefined {
  const t = reading.thresholds;
  const rangeWellFormed = t.rangeMin !== undefined && t.rangeMax !== undefined && t.rangeMin < t.rangeMax;
  if (rangeWellFormed && (value < (t.rangeMin as number) || value > (t.rangeMax as number))) {
    return "SensorFailure";
  }
  if (below(value, t.lowerCritical, t.lowerFatal) || above(value, t.upperCritical, t.upperFatal)) {
    return "SensorCritical";
  }
  if (below(value, t.lowerCaution) || above(value, t.upperCaution)) return "SensorWarning";
  return undefined;
}

function below(value: number, ...limits: Array<number | undefined>): boolean {
  return limits.some((limit) => limit !== undefined && value < limit);
}

function above(value: number, ...limits: Array<number | undefined>): boolean {
  return limits.some((limit) => limit !== undefined && value > limit);
}

/**
 * The documented `BmcSensor` message:
 * `<entity_type> '<sensor_id>': <status> - reading <value><unit> (<reading_type>), valid range: <range>,
 * caution: <range>, critical: <range>`.
 */
export function sensorAlertMessage(reading: SensorReading, kind: SensorAlertKind): string {
  const t = reading.thresholds;
  const value = reading.reading === null ? "none" : reading.reading.toFixed(2);
  return (
    `${ENTITY_TYPES[reading.kind]} '${reading.id}': ${STATUS[kind]} - reading ${value}${reading.units} ` +
    `(${reading.kind}), valid range: ${range(t.rangeMin, t.rangeMax)}, ` +
    `caution: ${range(t.lowerCaution, t.upperCaution)}, ` +
    `critical: ${range(t.lowerCritical ?? t.lowerFatal, t.upperCritical ?? t.upperFatal)}`
  );
}

function range(low: number | undefined, high: number | undefined): string {
  if (low === undefined && high === undefined) return "none";
  return `${low === undefined ? "-inf" : low.toFixed(1)} to ${high === undefined ? "inf" : high.toFixed(1)}`;
}
