import type { DpuNetworkObservation } from "../tables.js";

export type SyncState = "synced" | "pending";

export interface NetworkConfigSyncedInput {
  dpus: ReadonlyArray<{
    id: string;
    primary: boolean;
    observation: Pick<
      DpuNetworkObservation,
      "appliedManagedHostConfigVersion" | "appliedInstanceConfigVersion" | "observedAt"
    > | null;
  }>;
  /** The host's managed_hosts.network_config_version. */
  networkConfigVersion: number;
  /** The instance's config version; null when no instance config must be applied. */
  instanceConfigVersion: number | null;
}

/**
 * The DPUs that have not applied the current network config (and the instance's config version, when there
 * is one), each with why. A DPU that has not reported yet has applied nothing; with `heartbeat`, a report
 * older than its timeout does not count either.
 */
export function networkSyncProblems(
  input: NetworkConfigSyncedInput,
  heartbeat?: { now: Date; timeoutMs: number },
): string[] {
  const problems: string[] = [];
  for (const { id, observation } of input.dpus) {
    const age = observation && heartbeat ? heartbeat.now.getTime() - Date.parse(observation.observedAt) : 0;
    if (!observation) {
      problems.push(`${id}: no report from its DPU agent`);
    } else if (heartbeat && age > heartbeat.timeoutMs) {
      problems.push(`${id}: last report ${Math.round(age / 1000)} s ago (HeartbeatTimeout)`);
    } else if (observation.appliedManagedHostConfigVersion !== input.networkConfigVersion) {
      problems.push(`${id}: applied v${observation.appliedManagedHostConfigVersion}`);
    } else if (
      input.instanceConfigVersion !== null &&
      observation.appliedInstanceConfigVersion !== input.instanceConfigVersion
    ) {
      problems.push(
        `${id}: applied instance config v${observation.appliedInstanceConfigVersion ?? "none"} of v${input.instanceConfigVersion}`,
      );
    }
  }
  return problems;
}

/** Whether every DPU of the host reports having applied the current network config (see networkSyncProblems). */
export function networkConfigSynced(input: NetworkConfigSyncedInput): boolean {
  return networkSyncProblems(input).length === 0;
}

export interface ConfigsSynced {
  aggregate: SyncState;
  subsystems: Record<string, SyncState>;
}

/** Per-subsystem sync (network now; infiniband and nvlink join as more keys) and their AND. */
export function configsSynced(subsystems: Readonly<Record<string, boolean>>): ConfigsSynced {
  const states = Object.fromEntries(
    Object.entries(subsystems).map(([name, synced]) => [name, synced ? "synced" : "pending"] as const),
  );
  return {
    aggregate: Object.values(subsystems).every(Boolean) ? "synced" : "pending",
    subsystems: states,
  };
}
