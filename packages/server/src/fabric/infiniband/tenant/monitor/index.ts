export { diffHostPkeys, type GuidPkey, groupByPkey, type HostPkeyDiff } from "./diff.js";
export { alertKeys, hostIbReport, IB_CLEANUP_PENDING, IB_HEALTH_SOURCE, IB_PORT_DOWN } from "./hostReport.js";
export { IbMonitorMetrics } from "./metrics.js";
export {
  IB_MONITOR_LOCK,
  IbFabricMonitor,
  type IbFabricMonitorDeps,
  type IbMonitorRunResult,
} from "./monitor.js";
export type { HostIbObservation, IbFabricHealth, IbInterfaceObservation } from "./observation.js";
export { boundInRanges, syncProblemsFrom } from "./problems.js";
export {
  hostIbPorts,
  readFabricHealth,
  readHostObservation,
  writeHostObservation,
} from "./store.js";
