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
export { probeTargetsOf } from "./probeTargets.js";
export { healthReportFromProto, healthReportToProto, type ProtoHealthReport } from "./proto.js";
