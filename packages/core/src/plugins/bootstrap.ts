import type { LoadedConfig } from "../config/index.js";
import { type LoadedPlugin, loadPlugins } from "./loader.js";
import { PluginHost } from "./pluginHost.js";

/** A plugin host with exactly the plugins the config names loaded into it. */
export async function createPluginHost(
  config: LoadedConfig,
): Promise<{ host: PluginHost; plugins: LoadedPlugin[] }> {
  const host = new PluginHost();
  const plugins = await loadPlugins(config.config.plugins, { baseDir: config.baseDir, host });
  return { host, plugins };
}
