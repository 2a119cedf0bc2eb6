import { networkSyncProblems } from "../instances/syncStatus.js";
import type { Step } from "../machine/step.js";

/**
 * DPUs that have not applied the host's current network config (and, with an instance, its config version),
 * each with why; empty when all have. A report older than the heartbeat timeout does not count.
 */
export function dpusNotSynced(step: Step, options: { instanceConfigVersion: number | null }): string[] {
  const { snapshot } = step;
  return networkSyncProblems(
    {
      dpus: snapshot.dpus.map((dpu) => ({
        id: dpu.id,
        primary: dpu.primary_dpu,
        observation: snapshot.reports.get(dpu.id)?.network_status ?? null,
      })),
      networkConfigVersion: snapshot.networkConfigVersion,
      instanceConfigVersion: options.instanceConfigVersion,
    },
    { now: step.now, timeoutMs: step.config.dpuHeartbeatTimeoutMs },
  );
}
