export { createPluginHost } from "./bootstrap.js";
export { type PluginErrorCode, PluginLoadError } from "./errors.js";
export {
  type LoadedPlugin,
  type LoadPluginsOptions,
  loadPlugins,
  resolvePlugin,
} from "./loader.js";
export {
  BMC_DRIVER_TOKEN,
  BUILT_IN_SOURCE,
  HEALTH_PROBE_TOKEN,
  HOST_TEST_RULES_TOKEN,
  INFINIBAND_FABRIC_TOKEN,
  NVLINK_FABRIC_TOKEN,
  PluginHost,
  type PluginSource,
  type RegisteredBmcDriver,
  type RegisteredHealthProbe,
  type RegisteredHostTestRules,
  type RegisteredInfiniBandFabric,
  type RegisteredNvLinkFabric,
  type RegisteredSkuRules,
  type RegisteredValidationRunner,
  SKU_RULES_TOKEN,
  VALIDATION_RUNNER_TOKEN,
} from "./pluginHost.js";
