import { ConfigError, type LoadedConfig } from "../config/index.js";
import { createPluginHost, type PluginHost, PluginLoadError } from "../plugins/index.js";
import { DEFAULT_FEATURES } from "../service/index.js";
import { configErrorFindings } from "./configCheck.js";
import { displayPath } from "./paths.js";
import { pluginFailure } from "./pluginsCheck.js";
import type { DoctorCheck } from "./types.js";

/**
 * What `racksmith serve` checks once the plugins are loaded together: plugins that clash, `drivers.*`
 * against the loaded drivers, and every feature's config check (fabric sections against their plugin).
 */
export async function checkPluginSettings(
  loaded: LoadedConfig,
  cwd: string,
): Promise<{ config: DoctorCheck[]; plugins: DoctorCheck[] }> {
  const file = loaded.file ?? "racksmith.yaml";
  let host: PluginHost;
  try {
    ({ host } = await createPluginHost(loaded));
  } catch (error) {
    if (error instanceof ConfigError) return { config: configErrorFindings(error, cwd), plugins: [] };
    if (error instanceof PluginLoadError) {
      return { config: [], plugins: [pluginFailure(error.plugin, error, displayPath(file, cwd))] };
    }
    throw error;
  }
  // Features sharing a section (the explorer's and the lifecycle's BMC settings) report a problem once.
  const problems = new Set(
    DEFAULT_FEATURES.flatMap((feature) => feature.validateConfig?.({ config: loaded, host }) ?? []),
  );
  return {
    config: problems.size ? configErrorFindings(new ConfigError(file, [...problems]), cwd) : [],
    plugins: [],
  };
}
