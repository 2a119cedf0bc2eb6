/**
 * A health report (NICo's HealthReport): what one source says about a machine. Probe ids and
 * classifications are non-empty strings; the classifications below change what the core does.
 */
export interface HealthReport {
  source: string;
  triggeredBy?: string;
  observedAt?: string;
  successes: HealthProbeSuccess[];
  alerts: HealthProbeAlert[];
}

export interface HealthProbeSuccess {
  id: string;
  target?: string;
}

export interface HealthProbeAlert {
  id: string;
  target?: string;
  inAlertSince?: string;
  message: string;
  tenantMessage?: string;
  classifications: string[];
}

/** Classifications the core acts on. */
export const HEALTH_CLASSIFICATIONS = {
  preventAllocations: "PreventAllocations",
  preventHostStateChanges: "PreventHostStateChanges",
  stopRebootForAutomaticRecovery: "StopRebootForAutomaticRecoveryFromStateMachine",
  excludeFromStateMachineSla: "ExcludeFromStateMachineSla",
  suppressExternalAlerting: "SuppressExternalAlerting",
  hardware: "Hardware",
  sensorCritical: "SensorCritical",
} as const;

/** The alerts of a report that carry a classification. */
export function alertsClassified(
  report: HealthReport | undefined,
  classification: string,
): HealthProbeAlert[] {
  return report ? report.alerts.filter((alert) => alert.classifications.includes(classification)) : [];
}

/** An empty report of a source (everything healthy, nothing checked). */
export function emptyHealthReport(source: string, observedAt?: string): HealthReport {
  return { source, ...(observedAt ? { observedAt } : {}), successes: [], alerts: [] };
}
