/**
 * `@racksmith/server` — the service: config loading, the plugin host and loader, the database (PGlite or
 * PostgreSQL) and its migrations, the REST and gRPC APIs, the features (inventory, site explorer, lifecycle
 * and instances, health, InfiniBand and NVLink tenant sides) and `startService` which runs them together.
 * Test helpers (a database per test file, `waitFor`) are at `@racksmith/server/testing`.
 */
import "reflect-metadata";

export {
  type ApiContext,
  createGrpcServer,
  createRestServer,
  PROTO_LOADER_OPTIONS,
} from "./api/index.js";
export { type AgentCertificateRequest, createAgentCertificateRequest } from "./auth/index.js";
export { ServiceClient, ServiceError } from "./client/index.js";
export {
  ConfigError,
  DEFAULT_CONFIG,
  type LoadedConfig,
  loadConfig,
  type RacksmithConfig,
} from "./config/index.js";
export {
  assertMigrated,
  type Database,
  DatabaseNotMigratedError,
  DatabaseUnavailableError,
  DEFAULT_DATA_DIR,
  MIGRATIONS,
  type MigrateOptions,
  type Migration,
  MigrationError,
  migrate,
  migrationStatus,
  type OpenDatabaseOptions,
  openDatabase,
  type RacksmithDatabase,
} from "./db/index.js";
export { type DoctorCheck, type DoctorOptions, type DoctorStatus, runDoctor } from "./doctor/index.js";
export {
  createSiteExplorerFeature,
  type EndpointDetail,
  type EndpointSummary,
  type ExploreNowResult,
  MANAGED_HOST_OBJECT_TYPE,
  type MachineDetail,
  type MachineLifecycleView,
  type MachineView,
  type ManagedHostView,
  machineIdFor,
} from "./explorer/index.js";
export type { IbPartitionView } from "./fabric/infiniband/tenant/index.js";
export { type CollectorStatus, HealthCollectors } from "./health/collectors/index.js";
export {
  isOverrideTemplateName,
  OVERRIDE_TEMPLATE_NAMES,
} from "./health/index.js";
export {
  BmcMonitor,
  healthReportRecorder,
  type MonitorBmcAccess,
  openMonitorBmcAccess,
  resolveMonitorConfig,
} from "./health/monitor/index.js";
export { HealthService, type HealthServiceDeps } from "./health/service/index.js";
export {
  type ApplyExpectedMachinesResult,
  type CredentialKey,
  type DhcpDiscovery,
  type DhcpLease,
  DPU_MODES,
  type DpuMode,
  EXPECTED_MACHINE_CSV_COLUMNS,
  type ExpectedMachine,
  type ExpectedMachineInput,
  type ExpectedMachineRowResult,
  ExpectedMachinesFileError,
  type ExpectedMachinesMode,
  FileCredentialStore,
  inventoryFeature,
  normalizeCredentialKey,
  openSiteCredentialStore,
  parseExpectedMachinesFile,
  resolveInventoryConfig,
  SiteCredentialStore,
} from "./inventory/index.js";
export {
  type BmcAccess,
  type BmcAccessOptions,
  createBmcAccess,
  ServiceProbeCache,
} from "./lifecycle/bmc/index.js";
export {
  type InstanceView,
  invalidTransitions,
  MANAGED_HOST_GRAPH,
  type RebootPolicy,
  type RebootStats,
  retryIntervalMs,
  type StateGraph,
} from "./lifecycle/index.js";
export { prometheusMetrics } from "./metrics/index.js";
export {
  createPluginHost,
  type LoadedPlugin,
  type LoadPluginsOptions,
  loadPlugins,
  type PluginErrorCode,
  PluginHost,
  PluginLoadError,
  type PluginSource,
  type RegisteredBmcDriver,
  type RegisteredHealthProbe,
  type RegisteredInfiniBandFabric,
  type RegisteredNvLinkFabric,
  type RegisteredSkuRules,
  type RegisteredValidationRunner,
  resolvePlugin,
} from "./plugins/index.js";
export {
  type ConfigCheckContext,
  createExtensionPoint,
  createServiceLogger,
  DEFAULT_FEATURES,
  type ExtensionPoint,
  Extensions,
  type FeatureContext,
  type FeatureRuntime,
  parseListenAddress,
  type RunningService,
  type ServiceFeature,
  type ServiceOptions,
  startService,
} from "./service/index.js";
