import { HEALTH_CLASSIFICATIONS, type HealthProbeAlert, type HealthReport } from "@racksmith/core/health";
import type { IbGuid } from "@racksmith/core/infiniband";

/** The health report source the IB fabric monitor writes on hosts. */
export const IB_HEALTH_SOURCE = "ib-fabric-monitor";
export const IB_CLEANUP_PENDING = "IbCleanupPending";
export const IB_PORT_DOWN = "IbPortDown";

export interface HostIbHealth {
  /** GUIDs a release left in tenant pkeys while the fabric was unreachable. */
  cleanupPending: IbGuid[];
  /** Tracked ports (in the instance's IB config) that are not active. */
  portsDown: Array<{ guid: IbGuid; state: string }>;
}

/** The host's report from the monitor's findings (no alerts: healthy). */
export function hostIbReport(health: HostIbHealth, observedAt: string): HealthReport {
  const alerts: HealthProbeAlert[] = [];
  if (health.cleanupPending.length > 0) {
    alerts.push({
      id: IB_CLEANUP_PENDING,
      message: `IB port cleanup pending - the IB fabric monitor will unbind. GUIDs: ${health.cleanupPending.map((g) => `0x${g}`).join("; ")}`,
      classifications: [HEALTH_CLASSIFICATIONS.preventAllocations],
    });
  }
  for (const port of health.portsDown) {
    alerts.push({
      id: IB_PORT_DOWN,
      target: `0x${port.guid}`,
      message: `InfiniBand port 0x${port.guid} is ${port.state}`,
      classifications: [HEALTH_CLASSIFICATIONS.hardware],
    });
  }
  return { source: IB_HEALTH_SOURCE, observedAt, successes: [], alerts };
}

/** A stable fingerprint of the alerts, to record the report only when it changes. */
export function alertKeys(report: HealthReport): string[] {
  return report.alerts.map((alert) => `${alert.id}|${alert.target ?? ""}|${alert.message}`);
}
