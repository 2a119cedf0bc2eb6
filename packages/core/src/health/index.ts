export {
  type AggregateHealthInput,
  type DpuHealthInput,
  deriveAggregateHealth,
  type SensorAlertMode,
} from "./aggregate.js";
export { healthContentHash } from "./contentHash.js";
export {
  allocationBlockers,
  blocksHostStateChanges,
  excludedFromSla,
  stopsAutomaticReboots,
  suppressesExternalAlerting,
  tenantVisibleAlerts,
} from "./effects.js";
export {
  appendHealthHistory,
  HEALTH_HISTORY_LIMIT,
  type HealthHistoryEntry,
} from "./history.js";
export { retainInAlertSince } from "./inAlertSince.js";
export { type MergeHealthOptions, mergeHealthReports } from "./merge.js";
export {
  type AddOverrideOptions,
  addOverride,
  emptyHealthOverrides,
  type HealthOverrideMode,
  type HealthOverrides,
  listOverrides,
  removeOverride,
} from "./overrides.js";
export {
  isOverrideTemplateName,
  OVERRIDE_TEMPLATE_NAMES,
  OVERRIDE_TEMPLATES,
  type OverrideTemplate,
  type OverrideTemplateName,
  overrideTemplate,
} from "./overrideTemplates.js";
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
export { healthReportFromProto, healthReportToProto, type ProtoHealthReport } from "./proto.js";
export {
  alertsClassified,
  emptyHealthReport,
  HEALTH_CLASSIFICATIONS,
  type HealthProbeAlert,
  type HealthProbeSuccess,
  type HealthReport,
} from "./report.js";
export { HEALTH_REPORT_JSON_SCHEMA, parseHealthReport } from "./schema.js";
