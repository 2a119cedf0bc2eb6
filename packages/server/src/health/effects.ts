import {
  alertsClassified,
  HEALTH_CLASSIFICATIONS,
  type HealthProbeAlert,
  type HealthReport,
} from "@racksmith/core/health";

/*
 * What the core does with an (aggregate) report. The lifecycle asks these instead of matching alert ids, so an
 * operator's override or a plugin's probe has the same effect as a built-in check.
 */

/** The alerts that keep a host from being given to a tenant (empty: allocatable as far as health goes). */
export function allocationBlockers(report: HealthReport | undefined): HealthProbeAlert[] {
  return alertsClassified(report, HEALTH_CLASSIFICATIONS.preventAllocations);
}

/** True when the host must not move on through states that need a healthy, configured host. */
export function blocksHostStateChanges(report: HealthReport | undefined): boolean {
  return alertsClassified(report, HEALTH_CLASSIFICATIONS.preventHostStateChanges).length > 0;
}

/** True when the state machine must not reboot the host to recover it (someone is working on it). */
export function stopsAutomaticReboots(report: HealthReport | undefined): boolean {
  return alertsClassified(report, HEALTH_CLASSIFICATIONS.stopRebootForAutomaticRecovery).length > 0;
}

/** True when time in state must not count against the state's SLA. */
export function excludedFromSla(report: HealthReport | undefined): boolean {
  return alertsClassified(report, HEALTH_CLASSIFICATIONS.excludeFromStateMachineSla).length > 0;
}

/** True when fleet-health metrics and alerting should leave the host out. */
export function suppressesExternalAlerting(report: HealthReport | undefined): boolean {
  return alertsClassified(report, HEALTH_CLASSIFICATIONS.suppressExternalAlerting).length > 0;
}

/**
 * What a tenant may see: only alerts that carry a tenant message, reduced to it (operator messages and
 * classifications can name internals a tenant must not see).
 */
export function tenantVisibleAlerts(report: HealthReport | undefined): HealthProbeAlert[] {
  return (report?.alerts ?? []).flatMap((alert) =>
    alert.tenantMessage === undefined
      ? []
      : [
          {
            id: alert.id,
            ...(alert.target !== undefined ? { target: alert.target } : {}),
            ...(alert.inAlertSince !== undefined ? { inAlertSince: alert.inAlertSince } : {}),
            message: alert.tenantMessage,
            tenantMessage: alert.tenantMessage,
            classifications: [],
          },
        ],
  );
}
