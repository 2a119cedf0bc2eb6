import { HEALTH_SOURCES } from "@racksmith/core/health";

/** BMC sensor rollups (`hardware-health`, `hardware-health.<probe>`) count per `health.sensorAlerts`. */
export function isSensorSource(source: string): boolean {
  return source === HEALTH_SOURCES.hardwareHealth || source.startsWith(`${HEALTH_SOURCES.hardwareHealth}.`);
}
