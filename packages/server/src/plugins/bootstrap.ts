import type { LoadedConfig } from "../config/index.js";
import { type LoadedPlugin, loadPlugins } from "./loader.js";
import { PluginHost } from "./pluginHost.js";
import { checkPluginSettings, DRIVER_SETTINGS, HEALTH_PROBE_SETTINGS } from "./pluginSettings.js";

/**
 * A plugin host with exactly the plugins the config names loaded, and the settings of each driver
 * (`drivers.<name>`) and each health probe (`healthProbes.<name>`) checked against its schema.
 */
export async function createPluginHost(
  config: LoadedConfig,
): Promise<{ host: PluginHost; plugins: LoadedPlugin[] }> {
  const host = new PluginHost();
  const plugins = await loadPlugins(config.config.plugins, { baseDir: config.baseDir, host });
  const file = config.file ?? "racksmith.yaml";
  host.setDriverSettings(
    checkPluginSettings(DRIVER_SETTINGS, config.config.drivers ?? {}, host.bmcDriverDefinitions(), file),
  );
  host.setProbeSettings(
    checkPluginSettings(
      HEALTH_PROBE_SETTINGS,
      config.config.healthProbes ?? {},
      host.healthProbes().map((probe) => probe.definition),
      file,
    ),
  );
  return { host, plugins };
}
