import type { InstanceStep, ManagedHostState } from "../states.js";
import type { SyncState } from "./syncStatus.js";

export type TenantState =
  | "Provisioning"
  | "Configuring"
  | "Ready"
  | "Updating"
  | "Terminating"
  | "Terminated"
  | "Failed"
  | "Invalid";

export interface TenantStateInput {
  instance: { id: string; releaseRequestedAt: Date | string | null; terminatedAt: Date | string | null };
  /** The host's lifecycle state; undefined when it has none. */
  hostState: ManagedHostState | undefined;
  configsSyncedAggregate: SyncState;
}

const PROVISIONING_STEPS: ReadonlySet<InstanceStep["step"]> = new Set([
  "waitingForNetworkConfig",
  "waitingForRebootToReady",
]);

/**
 * What the tenant sees (NICo's TenantState, adapted to our states): derived on every read, never stored.
 * The tenant's own intents come first: a released instance is Terminating whatever the host is doing.
 */
export function tenantState(input: TenantStateInput): TenantState {
  const { instance, hostState } = input;
  if (instance.terminatedAt !== null) return "Terminated";
  if (instance.releaseRequestedAt !== null) return "Terminating";
  switch (hostState?.state) {
    case "ready":
      // The lifecycle has not picked the new instance up yet.
      return "Provisioning";
    case "assigned": {
      if (hostState.instanceId !== instance.id) return "Invalid";
      const step = hostState.instanceState.step;
      if (PROVISIONING_STEPS.has(step)) return "Provisioning";
      if (step === "ready") return input.configsSyncedAggregate === "synced" ? "Ready" : "Configuring";
      // powerCycleOff … waitingForNetworkReconfig: the release steps.
      return "Terminating";
    }
    case "failed":
      return "Failed";
    case "forceDeletion":
      return "Terminating";
    default:
      return "Invalid";
  }
}
