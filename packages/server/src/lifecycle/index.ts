export type { MachineInventory, ValidationResult, ValidationTestResult } from "@racksmith/core";
export * from "./agents/index.js";
export * from "./api/index.js";
export type { BmcAccess, BmcSession, LifecycleBmc } from "./bmc/bmcSession.js";
export { BOM_VALIDATION, type BomValidation, type BomVerdict } from "./bom/index.js";
export {
  DEFAULT_LIFECYCLE_CONFIG,
  LIFECYCLE_CONFIG_SCHEMA,
  type LifecycleConfig,
  type ResolvedLifecycleConfig,
  resolveLifecycleConfig,
} from "./config.js";
export { INSTANCE_FABRICS, type InstanceFabric, type InstanceFabricTarget } from "./fabrics/index.js";
export { createLifecycleFeature, type LifecycleFeatureOptions, lifecycleFeature } from "./feature.js";
export { invalidTransitions, MANAGED_HOST_GRAPH, type StateGraph } from "./graph.js";
export {
  HOST_TEST_RUNS,
  type HostTestRunStatus,
  type HostTestRuns,
  HostTestsNotLoadedError,
  type PendingHostTestRun,
} from "./hostTests/index.js";
export * from "./instances/index.js";
export { managedHostLifecycle } from "./machine/managedHostMachine.js";
export type { ManagedHostSnapshot } from "./machine/snapshot.js";
export type { ForceDeletionHook, LifecycleDeps } from "./machine/step.js";
export {
  decideReboot,
  type RebootDecision,
  type RebootInput,
  type RebootPolicy,
  type RebootStats,
  retryIntervalMs,
} from "./reboot/index.js";
export * from "./states.js";
export type {
  CleanupResult,
  DpuNetworkObservation,
  InstanceConfig,
  InstanceInfiniBandInterface,
  InstanceInterface,
  InstanceNvLinkGpu,
  InterfaceObservation,
  RebootRequest,
  ReleaseIssue,
} from "./tables.js";
