export { type MergeHealthOptions, mergeHealthReports, sortedSet } from "./merge.js";
export {
  type CollectingHealthProbe,
  defineHealthProbe,
  HEALTH_PROBE_TARGETS,
  type HealthCollectorContext,
  type HealthProbe,
  type HealthProbeContext,
  type HealthProbeMachine,
  type HealthProbeTarget,
  type PolledHealthProbe,
} from "./probe.js";
export { HEALTH_PROBE_IDS, HEALTH_SOURCES } from "./probeIds.js";
export { compareProbeKeys, probeKey } from "./probeKey.js";
export {
  alertsClassified,
  emptyHealthReport,
  HEALTH_CLASSIFICATIONS,
  type HealthProbeAlert,
  type HealthProbeSuccess,
  type HealthReport,
} from "./report.js";
export { HEALTH_REPORT_JSON_SCHEMA, parseHealthReport } from "./schema.js";
