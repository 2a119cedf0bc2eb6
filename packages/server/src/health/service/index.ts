/*
 * The health service (server side: database, APIs, metrics). Not part of the plugin SDK: `health/index.ts`
 * exports the pure model only.
 */
export { type AssembleOptions, assembleAggregateInput } from "./assemble.js";
export {
  DEFAULT_HEALTH_CONFIG,
  HEALTH_CONFIG_SCHEMA,
  type HealthConfig,
  healthConfigProblems,
  type ResolvedHealthConfig,
  resolveHealthConfig,
} from "./config.js";
export { DpuReplaceOverrideError, HealthOverrideNotFoundError } from "./errors.js";
export { type ExploredBmcFacts, explorerFindingsReport } from "./explorerAlerts.js";
export { gatherHostHealth, type HostHealthFacts } from "./gather.js";
export { HEALTH_SERVICE, healthGrpcServices, toMachineHealthMessage } from "./grpcService.js";
export {
  type AddHealthOverrideOptions,
  DEFAULT_HISTORY_PAGE,
  type HealthHistoryView,
  type HealthOverrideInput,
  type HealthOverrideSummary,
  HealthService,
  type HealthServiceDeps,
  type MachineHealthView,
} from "./healthService.js";
export {
  HealthMetrics,
  HOST_HEALTH_STATUSES,
  type HostHealthStatus,
  healthMetrics,
  hostHealthStatus,
} from "./metrics.js";
export { healthRestRoutes, overrideInput } from "./restRoutes.js";
export { HOST_HEALTH, hostHealthRecorder } from "./sharedHealth.js";
export { isSensorSource } from "./sources.js";
export type {
  EventLogCursorsTable,
  HealthHistoryTable,
  HealthReportsTable,
  MachineHealthTable,
} from "./tables.js";
export { validationReport } from "./validationAlerts.js";
