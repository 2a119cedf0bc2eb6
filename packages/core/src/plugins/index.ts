export { createPluginHost } from "./bootstrap.js";
export { type PluginErrorCode, PluginLoadError } from "./errors.js";
export {
  exportTarget,
  type LoadedPlugin,
  type LoadPluginsOptions,
  loadPlugins,
  resolvePlugin,
} from "./loader.js";
export {
  type DefinedPlugin,
  definePlugin,
  PLUGIN_MARKER,
  type PluginManifest,
  type PluginRegistry,
} from "./manifest.js";
export {
  BMC_DRIVER_TOKEN,
  BUILT_IN_SOURCE,
  PluginHost,
  type PluginSource,
  type RegisteredBmcDriver,
} from "./pluginHost.js";
