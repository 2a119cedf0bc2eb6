/** The BMC monitor (hardware health): server-only, exported through `@racksmith/server`. */
export { openMonitorBmcAccess } from "./access.js";
export {
  DEFAULT_MONITOR_CONFIG,
  MONITOR_CONFIG_SCHEMA,
  type MonitorConfig,
  monitorConfigProblems,
  type ResolvedMonitorConfig,
  resolveMonitorConfig,
} from "./config.js";
export {
  evaluateSensor,
  SENSOR_ALERT_KINDS,
  type SensorAlertKind,
  type SensorEvaluation,
  sensorAlertMessage,
} from "./evaluate.js";
export { collectEventLogs, type EventLogLine } from "./eventLogs.js";
export { BmcMonitorMetrics, type CollectionKind, type MonitoredBmc } from "./metrics.js";
export {
  BmcMonitor,
  type BmcMonitorOptions,
  MONITOR_TASKS,
  type MonitorBmcAccess,
  type MonitorPassResult,
  type MonitorTask,
} from "./monitor.js";
export { collectReadings, type MonitorBmc, readingsFromPower } from "./readings.js";
export { healthReportRecorder } from "./reportStore.js";
export { sensorReport } from "./sensorReport.js";
