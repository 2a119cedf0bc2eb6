import type { LoadedConfig } from "../config/index.js";
import { checkDriverSettings } from "./driverSettings.js";
import { type LoadedPlugin, loadPlugins } from "./loader.js";
import { PluginHost } from "./pluginHost.js";

/** A plugin host with exactly the plugins the config names loaded, and each driver's settings checked. */
export async function createPluginHost(
  config: LoadedConfig,
): Promise<{ host: PluginHost; plugins: LoadedPlugin[] }> {
  const host = new PluginHost();
  const plugins = await loadPlugins(config.config.plugins, { baseDir: config.baseDir, host });
  host.setDriverSettings(
    checkDriverSettings(
      config.config.drivers ?? {},
      host.bmcDriverDefinitions(),
      config.file ?? "racksmith.yaml",
    ),
  );
  return { host, plugins };
}
