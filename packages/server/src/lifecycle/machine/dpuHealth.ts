import { HEALTH_CLASSIFICATIONS, type HealthProbeAlert } from "@racksmith/core/health";
import type { ManagedHostSnapshot } from "./snapshot.js";

/**
 * The host's DPU agent alerts: each agent's own, or HeartbeatTimeout (PreventAllocations,
 * PreventHostStateChanges) for an agent whose last report is older than the timeout. With
 * `missingIsSilent`, a DPU whose agent never reported counts as silent too (allocation); else it is skipped
 * (the lifecycle waits for the first report on its own).
 */
export function dpuAgentAlerts(
  snapshot: ManagedHostSnapshot,
  now: Date,
  heartbeatTimeoutMs: number,
  options: { missingIsSilent: boolean },
): HealthProbeAlert[] {
  const alerts: HealthProbeAlert[] = [];
  for (const dpu of snapshot.dpus) {
    const observation = snapshot.reports.get(dpu.id)?.network_status;
    if (!observation && !options.missingIsSilent) continue;
    const age = observation ? now.getTime() - Date.parse(observation.observedAt) : undefined;
    if (observation && age !== undefined && age <= heartbeatTimeoutMs) {
      alerts.push(...observation.health.alerts);
      continue;
    }
    alerts.push({
      id: "HeartbeatTimeout",
      target: "forge-dpu-agent",
      message:
        age === undefined
          ? `the DPU agent of ${dpu.id} never reported`
          : `no report from the DPU agent of ${dpu.id} for ${Math.round(age / 1000)} s`,
      classifications: [
        HEALTH_CLASSIFICATIONS.preventAllocations,
        HEALTH_CLASSIFICATIONS.preventHostStateChanges,
      ],
    });
  }
  return alerts;
}
