export { defineNvLinkFabric } from "./defineNvLinkFabric.js";
export { DEFAULT_NVLINK_MONITOR_SETTINGS, disabledNvLinkFabric } from "./disabled.js";
export {
  NvLinkFabricAuthError,
  NvLinkFabricBadResponseError,
  NvLinkFabricDisabledError,
  NvLinkFabricError,
  type NvLinkFabricErrorCode,
  NvLinkFabricNotFoundError,
  NvLinkFabricRejectedError,
  NvLinkFabricTimeoutError,
  NvLinkFabricUnavailableError,
} from "./errors.js";
export type {
  NvLinkFabric,
  NvLinkFabricContext,
  NvLinkFabricDefinition,
  NvLinkMonitorSettings,
} from "./fabric.js";
export {
  isFinalNvLinkOperationStatus,
  NVLINK_DEFAULT_PARTITION_NUMBER,
  NVLINK_FINAL_OPERATION_STATUSES,
  type NvLinkCallOptions,
  type NvLinkComputeNode,
  type NvLinkCreatePartitionRequest,
  type NvLinkDomainId,
  type NvLinkGpu,
  type NvLinkGpuHealth,
  type NvLinkGpuLocation,
  type NvLinkListOptions,
  type NvLinkOperation,
  type NvLinkOperationRef,
  type NvLinkOperationStatus,
  type NvLinkPartition,
  type NvLinkPartitionHealth,
  type NvLinkPartitionType,
  type NvLinkUpdatePartitionRequest,
  type NvLinkWaitOptions,
} from "./types.js";
