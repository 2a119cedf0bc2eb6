export {
  AllocationBlockedError,
  ConfigVersionMismatchError,
  HostAlreadyAllocatedError,
  HostNotReadyError,
  InstanceNotFoundError,
  InstanceReleasedError,
  NoHostAvailableError,
} from "./errors.js";
export { INSTANCES_SERVICE, instancesGrpcServices, toInstanceMessage } from "./grpcService.js";
export { parseInstanceConfig } from "./instanceConfig.js";
export {
  type AllocateInstanceInput,
  type FindInstancesQuery,
  InstanceService,
  type InstanceServiceDeps,
} from "./instanceService.js";
export { instanceStatuses } from "./instanceStatus.js";
export type { InstanceRow, InstanceStatusView, InstanceView, TenantHealthAlert } from "./instanceView.js";
export { parseReleaseIssue, RELEASE_ISSUE_CATEGORIES } from "./releaseIssue.js";
export { instancesRestRoutes } from "./restRoutes.js";
export {
  type ConfigsSynced,
  configsSynced,
  type NetworkConfigSyncedInput,
  networkConfigSynced,
  networkSyncProblems,
  type SyncState,
} from "./syncStatus.js";
export { type TenantState, type TenantStateInput, tenantState } from "./tenantState.js";
