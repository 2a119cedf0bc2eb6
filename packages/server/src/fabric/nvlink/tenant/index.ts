/** The core's NVLink tenant side (service entry `@racksmith/server`). */
export {
  NVLINK_SERVICE,
  type NvLinkApi,
  nvlinkApi,
  nvlinkGrpcServices,
  nvlinkRestRoutes,
} from "./api/index.js";
export { type GpuMapping, type HostGpu, type MappedGpu, mapHostGpus } from "./gpuMapping/index.js";
export {
  decideGpu,
  type GpuAction,
  type GpuPlacement,
  NVLINK_MONITOR_LOCK,
  NvLinkMonitor,
  type NvLinkMonitorOptions,
  type NvLinkPassResult,
  planOperations,
} from "./monitor/index.js";
export { nvlinkInstanceFabric } from "./nvlinkInstanceFabric.js";
export {
  type CreateLogicalPartitionInput,
  LogicalPartitionInUseError,
  LogicalPartitionNotFoundError,
  LogicalPartitionService,
  type LogicalPartitionState,
  type LogicalPartitionView,
  NvLinkNotConfiguredError,
  type PhysicalPartitionView,
} from "./partitions/index.js";
export type { NvLinkGpuObservation } from "./tables.js";
