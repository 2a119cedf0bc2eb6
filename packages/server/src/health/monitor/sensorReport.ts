import type { SensorReading } from "@racksmith/core";
import type { HealthProbeAlert, HealthProbeSuccess, HealthReport } from "@racksmith/core/health";
import { HEALTH_PROBE_IDS, HEALTH_SOURCES } from "@racksmith/core/health";
import { evaluateSensor } from "./evaluate.js";

/**
 * The `hardware-health` report of one BMC's readings: a `BmcSensor` alert (target = sensor id) per sensor in
 * violation, a `BmcSensor` success per healthy one. The machine is the row the report is stored under, so it
 * is not repeated in the report.
 */
export function sensorReport(readings: readonly SensorReading[], now: Date): HealthReport {
  const alerts: HealthProbeAlert[] = [];
  const successes: HealthProbeSuccess[] = [];
  for (const reading of readings) {
    const evaluation = evaluateSensor(reading);
    if (evaluation.ok) {
      successes.push({ id: HEALTH_PROBE_IDS.bmcSensor, target: reading.id });
    } else {
      alerts.push({
        id: HEALTH_PROBE_IDS.bmcSensor,
        target: reading.id,
        message: evaluation.message,
        classifications: evaluation.classifications,
      });
    }
  }
  return { source: HEALTH_SOURCES.hardwareHealth, observedAt: now.toISOString(), successes, alerts };
}
