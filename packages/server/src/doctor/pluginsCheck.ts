import { CORE_VERSION, PLUGIN_API_VERSION } from "@racksmith/core";
import type { LoadedConfig } from "../config/index.js";
import { type LoadedPlugin, loadPlugins, PluginHost, PluginLoadError } from "../plugins/index.js";
import { displayPath } from "./paths.js";
import { type DoctorCheck, finding } from "./types.js";

export interface PluginsCheckResult {
  checks: DoctorCheck[];
  /** Whether every plugin loaded: only then can the plugin-dependent config checks run. */
  allLoaded: boolean;
}

/** Loads each configured plugin on its own host, so every bad plugin is reported, not only the first. */
export async function checkPlugins(loaded: LoadedConfig, cwd: string): Promise<PluginsCheckResult> {
  const core = `@racksmith/core ${CORE_VERSION} (plugin API ${PLUGIN_API_VERSION})`;
  const good: LoadedPlugin[] = [];
  const checks: DoctorCheck[] = [];
  for (const specifier of loaded.config.plugins) {
    try {
      good.push(...(await loadPlugins([specifier], { baseDir: loaded.baseDir, host: new PluginHost() })));
    } catch (error) {
      checks.push(pluginFailure(specifier, error, loaded.file ? displayPath(loaded.file, cwd) : undefined));
    }
  }
  if (checks.length > 0) return { checks, allLoaded: false };
  const names = good.map((plugin) => `${plugin.manifest.name}@${plugin.manifest.version}`);
  const detail = names.length
    ? `${names.join(", ")} on ${core}`
    : `none configured (drivers fall back to redfish-standard); ${core}`;
  return { checks: [finding("plugins", "ok", detail)], allLoaded: true };
}

/** A plugin that cannot be used, with the loader's own fix; anything else the loader threw is named too. */
export function pluginFailure(specifier: string, error: unknown, file: string | undefined): DoctorCheck {
  if (error instanceof PluginLoadError) {
    const problem = typeof error.details.problem === "string" ? error.details.problem : error.message;
    return finding("plugins", "fail", `plugin ${error.plugin}: ${problem} [${error.code}]`, error.fix);
  }
  return finding(
    "plugins",
    "fail",
    `plugin ${specifier}: ${error instanceof Error ? error.message : String(error)}`,
    `fix the plugin, or remove it from plugins in ${file ?? "the config"}`,
  );
}
