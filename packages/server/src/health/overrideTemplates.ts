import { HEALTH_CLASSIFICATIONS, HEALTH_PROBE_IDS, type HealthReport } from "@racksmith/core/health";
import type { HealthOverrideMode } from "./overrides.js";

export const OVERRIDE_TEMPLATE_NAMES = ["maintenance", "out-for-repair", "mark-healthy", "degraded"] as const;
export type OverrideTemplateName = (typeof OVERRIDE_TEMPLATE_NAMES)[number];

export interface OverrideTemplate {
  /** The mode the template is meant for; the report's source is the template's name. */
  mode: HealthOverrideMode;
  description: string;
  alert?: { id: string; message: string; tenantMessage?: string; classifications: readonly string[] };
}

const C = HEALTH_CLASSIFICATIONS;

/**
 * Ready-made overrides for what operators do most:
 * - `maintenance` (merge): alert `Maintenance`; no new tenant gets the host and fleet alerting ignores it.
 * - `out-for-repair` (merge): alert `OutForRepair`; as maintenance, and the state machine stops rebooting it
 *   to recover, since technicians are working on it.
 * - `mark-healthy` (replace): no alerts; replaces everything the monitors say (to unblock a host whose
 *   monitoring is wrong). Remove it as soon as the cause is fixed.
 * - `degraded` (merge): alert `Degraded` with a tenant message and no blocking classification; the host
 *   stays usable, but its tenant and the fleet see the problem.
 */
export const OVERRIDE_TEMPLATES: Readonly<Record<OverrideTemplateName, OverrideTemplate>> = {
  maintenance: {
    mode: "merge",
    description: "Host under maintenance: no allocations, no external alerts",
    alert: {
      id: HEALTH_PROBE_IDS.maintenance,
      message: "Host is under maintenance",
      classifications: [C.preventAllocations, C.suppressExternalAlerting],
    },
  },
  "out-for-repair": {
    mode: "merge",
    description: "Host out for repair: no allocations, no automatic reboots, no external alerts",
    alert: {
      id: HEALTH_PROBE_IDS.outForRepair,
      message: "Host is out for repair",
      classifications: [C.preventAllocations, C.stopRebootForAutomaticRecovery, C.suppressExternalAlerting],
    },
  },
  "mark-healthy": {
    mode: "replace",
    description: "Treat the host as healthy whatever its monitors report",
  },
  degraded: {
    mode: "merge",
    description: "Host degraded but usable: visible to its tenant, blocks nothing",
    alert: {
      id: HEALTH_PROBE_IDS.degraded,
      message: "Host is degraded",
      tenantMessage: "This host is degraded; consider releasing it",
      classifications: [],
    },
  },
};

export function isOverrideTemplateName(name: string): name is OverrideTemplateName {
  return (OVERRIDE_TEMPLATE_NAMES as readonly string[]).includes(name);
}

/**
 * The report of a template, observed and in alert since `now`; its source is the template name, so applying
 * a template twice replaces it. `message` (a ticket, a reason) replaces the default operator message.
 */
export function overrideTemplate(
  name: OverrideTemplateName,
  now: Date,
  options: { message?: string } = {},
): HealthReport {
  const template = OVERRIDE_TEMPLATES[name];
  const at = now.toISOString();
  const alert = template.alert;
  return {
    source: name,
    observedAt: at,
    successes: [],
    alerts: alert
      ? [
          {
            id: alert.id,
            inAlertSince: at,
            // An empty or blank message (a flag given without text) keeps the template's own.
            message: options.message?.trim() ? options.message : alert.message,
            ...(alert.tenantMessage !== undefined ? { tenantMessage: alert.tenantMessage } : {}),
            classifications: [...alert.classifications],
          },
        ]
      : [],
  };
}
