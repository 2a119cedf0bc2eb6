export { exportTarget } from "./exportTarget.js";
export {
  type DefinedPlugin,
  definePlugin,
  PLUGIN_MARKER,
  type PluginManifest,
  type PluginRegistry,
} from "./manifest.js";
export { collectRegistrations, type PluginRegistrations } from "./recordingRegistry.js";
