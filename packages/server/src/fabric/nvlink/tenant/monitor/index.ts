export { decideGpu, type GpuAction, type GpuDecisionInput, type GpuPlacement } from "./decide.js";
export { NvLinkMonitorMetrics } from "./metrics.js";
export {
  NVLINK_MONITOR_LOCK,
  NvLinkMonitor,
  type NvLinkMonitorOptions,
  type NvLinkPassResult,
} from "./monitor.js";
export {
  type GpuDecision,
  type OwnedPartition,
  type PlannedOperation,
  partitionName,
  planOperations,
} from "./plan.js";
