/**
 * The managed-host lifecycle's states (NICo's ManagedHostState, in our names). A host's DPUs share its
 * state; DPU phases keep one substate per DPU, and the least advanced one is what the host shows.
 */

/** DPU discovery, in order: each DPU moves through these; `rebootAllDpus` is a sync point. */
export const DPU_DISCOVERING_STEPS = [
  "enableRshim",
  "configureSecureBoot",
  "setUefiHttpBoot",
  "rebootAllDpus",
] as const;
export type DpuDiscoveringStep = (typeof DPU_DISCOVERING_STEPS)[number];

/** DPU init, in order; every step but `waitingForPlatformConfiguration` and `pollingBiosSetup` is a sync point. */
export const DPU_INIT_STEPS = [
  "waitingForDiscovery",
  "powerCycleHostOff",
  "powerCycleHostOn",
  "waitingForPlatformConfiguration",
  "pollingBiosSetup",
  "waitingForNetworkConfig",
] as const;
export type DpuInitStep = (typeof DPU_INIT_STEPS)[number];

/** A BMC job the lifecycle waits for (Dell's BIOS and boot-order jobs). */
export interface PendingJob {
  kind: "task" | "job";
  id: string;
  path: string;
}

/** Host init, in order. Retry counters count failures of the step (bounded; then Failed). */
export type HostInitStep =
  | { step: "disableLockdown" }
  | { step: "machineSetup"; retryCount: number; lastError?: string }
  | { step: "waitingForBiosJob"; retryCount: number; job: PendingJob }
  | { step: "pollingBiosSetup"; retryCount: number }
  | { step: "setBootOrder"; retryCount: number; lastError?: string }
  | { step: "waitingForBootOrderJob"; retryCount: number; job: PendingJob }
  | { step: "checkBootOrder"; retryCount: number }
  | { step: "waitingForDiscovery" }
  | { step: "enableLockdown" }
  | { step: "waitingForDpusUp" }
  | { step: "pollingLockdownStatus" };

export const HOST_INIT_STEPS = [
  "disableLockdown",
  "machineSetup",
  "waitingForBiosJob",
  "pollingBiosSetup",
  "setBootOrder",
  "waitingForBootOrderJob",
  "checkBootOrder",
  "waitingForDiscovery",
  "enableLockdown",
  "waitingForDpusUp",
  "pollingLockdownStatus",
] as const satisfies ReadonlyArray<HostInitStep["step"]>;

/** Why validation runs: at discovery, after cleanup, or because an operator asked. */
export type ValidationContext = "discovery" | "cleanup" | "onDemand";

/** How a host differs from its SKU (what `SkuVerificationFailed` shows). */
export interface BomMismatch {
  component: string;
  message: string;
}

/**
 * BOM (SKU) validation, NICo's BomValidating: a fresh inventory when one is needed, the verification, and the
 * three waits for an operator (a SKU to assign, a SKU to create, a host to fix and re-verify).
 */
export type BomValidatingStep =
  | { step: "updatingInventory" }
  | { step: "verifyingSku" }
  | { step: "waitingForSkuAssignment" }
  | { step: "skuMissing"; skuId: string }
  | { step: "skuVerificationFailed"; skuId: string; mismatches: BomMismatch[] };

export const BOM_VALIDATING_STEPS = [
  "updatingInventory",
  "verifyingSku",
  "waitingForSkuAssignment",
  "skuMissing",
  "skuVerificationFailed",
] as const satisfies ReadonlyArray<BomValidatingStep["step"]>;

/** The BOM steps that wait for an operator: no SLA runs while a host waits in one. */
export const BOM_OPERATOR_WAITS: ReadonlySet<BomValidatingStep["step"]> = new Set([
  "waitingForSkuAssignment",
  "skuMissing",
  "skuVerificationFailed",
]);

/** An instance on the host, from pick-up to release. */
export type InstanceStep =
  | { step: "waitingForNetworkConfig" }
  | { step: "waitingForRebootToReady" }
  | { step: "ready" }
  // Release, in this order: the host is off the tenant's hands before it rejoins the admin network.
  | { step: "powerCycleOff" }
  | { step: "powerCycleOn" }
  | { step: "unlockHost" }
  | { step: "bootingWithDiscoveryImage" }
  | { step: "switchToAdminNetwork" }
  | { step: "waitingForNetworkReconfig" };

export const INSTANCE_STEPS = [
  "waitingForNetworkConfig",
  "waitingForRebootToReady",
  "ready",
  "powerCycleOff",
  "powerCycleOn",
  "unlockHost",
  "bootingWithDiscoveryImage",
  "switchToAdminNetwork",
  "waitingForNetworkReconfig",
] as const satisfies ReadonlyArray<InstanceStep["step"]>;

export type CleanupStep = { step: "hostCleanup" } | { step: "lockHost" };
export const CLEANUP_STEPS = ["hostCleanup", "lockHost"] as const satisfies ReadonlyArray<
  CleanupStep["step"]
>;

/** Why a host failed (NICo's FailureCause, in our names). */
export type FailureCause =
  | "dpuDiscovery"
  | "dpuInit"
  | "machineSetup"
  | "biosJob"
  | "bootOrder"
  | "lockdown"
  | "discovery"
  | "cleanup"
  | "validation"
  | "manualInterventionRequired"
  | "unhandledState";

/** Which part of the lifecycle failed. */
export type FailureSource =
  | "stateMachine/dpuDiscovering"
  | "stateMachine/dpuInit"
  | "stateMachine/hostInit"
  | "stateMachine/validation"
  | "stateMachine/assigned"
  | "stateMachine/waitingForCleanup"
  | "hostAgent";

export interface FailureDetails {
  cause: FailureCause;
  source: FailureSource;
  message: string;
  failedAt: string;
  /** The state label it failed in. */
  failedIn: string;
}

export type ManagedHostState =
  /** Placed by the site explorer at ingestion; the lifecycle starts DPU discovery from here. */
  | { state: "created" }
  | { state: "dpuDiscovering"; dpus: Record<string, DpuDiscoveringStep> }
  | { state: "dpuInit"; dpus: Record<string, DpuInitStep> }
  | { state: "hostInit"; machineState: HostInitStep }
  | { state: "bomValidating"; context: ValidationContext; bomState: BomValidatingStep }
  | { state: "validation"; context: ValidationContext }
  /** Discovery done; waits for the host agent's reboot report (unless the reboot was already seen). */
  | { state: "discovered"; skipRebootWait: boolean }
  | { state: "ready" }
  | { state: "assigned"; instanceId: string; instanceState: InstanceStep }
  | { state: "waitingForCleanup"; cleanupState: CleanupStep }
  | { state: "failed"; details: FailureDetails }
  | { state: "forceDeletion" };

export type ManagedHostStateTag = ManagedHostState["state"];

export const MANAGED_HOST_STATE_TAGS = [
  "created",
  "dpuDiscovering",
  "dpuInit",
  "hostInit",
  "bomValidating",
  "validation",
  "discovered",
  "ready",
  "assigned",
  "waitingForCleanup",
  "failed",
  "forceDeletion",
] as const satisfies ReadonlyArray<ManagedHostStateTag>;

/** The least advanced DPU's step (what the host shows), or undefined when the host has no DPU entries. */
export function leastAdvanced<T extends string>(
  steps: Record<string, T>,
  order: readonly T[],
): T | undefined {
  let least: T | undefined;
  for (const step of Object.values(steps)) {
    if (least === undefined || order.indexOf(step) < order.indexOf(least)) least = step;
  }
  return least;
}

/** `hostInit/machineSetup`, `dpuInit/waitingForNetworkConfig`, `ready`: the state as metrics and lists show it. */
export function managedHostStateLabel(state: ManagedHostState): string {
  switch (state.state) {
    case "dpuDiscovering":
      return `dpuDiscovering/${leastAdvanced(state.dpus, DPU_DISCOVERING_STEPS) ?? "none"}`;
    case "dpuInit":
      return `dpuInit/${leastAdvanced(state.dpus, DPU_INIT_STEPS) ?? "none"}`;
    case "hostInit":
      return `hostInit/${state.machineState.step}`;
    case "bomValidating":
      return `bomValidating/${state.bomState.step}`;
    case "validation":
      return `validation/${state.context}`;
    case "assigned":
      return `assigned/${state.instanceState.step}`;
    case "waitingForCleanup":
      return `waitingForCleanup/${state.cleanupState.step}`;
    default:
      return state.state;
  }
}

/**
 * Whether the host is settled (Ready, or Ready for its tenant): nothing in it waits for a DPU agent's next
 * report, so a report that repeats the last one need not run it (a change still does).
 */
export function settledOnDpuReports(state: ManagedHostState): boolean {
  return state.state === "ready" || (state.state === "assigned" && state.instanceState.step === "ready");
}

/** What a host agent reports (each its own RPC): its inventory at boot, and each thing it finished. */
export type AgentReport =
  | "discovery"
  | "discoveryCompleted"
  | "rebootCompleted"
  | "cleanupCompleted"
  | "validationCompleted";

/**
 * The states whose handlers read each report (the inventory; `discovery_completed_at`, `reboot_completed_at`,
 * `cleanup_completed_at`, `validation_completed_at`): only a host in one of them is run for it. An agent's
 * boot reports a discovery and a finished reboot; a host waiting for the agent's discovery to complete has no
 * use for either, and at 10,000 hosts those runs were a seventh of the engine's work.
 */
const REPORT_READERS: Readonly<Record<AgentReport, ReadonlySet<ManagedHostState["state"]>>> = {
  discovery: new Set(["bomValidating", "validation"]),
  discoveryCompleted: new Set(["dpuInit", "hostInit", "bomValidating"]),
  rebootCompleted: new Set(["discovered", "assigned"]),
  cleanupCompleted: new Set(["waitingForCleanup"]),
  validationCompleted: new Set(["validation"]),
};

/** Whether an agent's report should run its host now (a host without a lifecycle object has nothing to run). */
export function agentReportWakes(report: AgentReport, state: ManagedHostState | null): boolean {
  return state !== null && REPORT_READERS[report].has(state.state);
}
