/**
 * `@racksmith/core` — the plugin SDK: the driver contract, the Redfish client, `RedfishStandard` to extend,
 * `definePlugin`, and the typed errors. The service and the plugin host live in `@racksmith/core/server`.
 */
import "reflect-metadata";

export * from "./drivers/index.js";
export * from "./errors/index.js";
export * from "./fabric/infiniband/index.js";
export * from "./fabric/nvlink/index.js";
export * from "./health/index.js";
export {
  childLogger,
  type Logger,
  REDACTED,
  redactSecrets,
  redactUrl,
  silentLogger,
} from "./logging/index.js";
export {
  type DefinedPlugin,
  definePlugin,
  type PluginManifest,
  type PluginRegistry,
} from "./plugins/manifest.js";
export { collectRegistrations, type PluginRegistrations } from "./plugins/recordingRegistry.js";
export * from "./redfish/index.js";
export * from "./standard/index.js";
export * from "./validation/index.js";
export { CORE_VERSION, PLUGIN_API_VERSION } from "./version.js";
