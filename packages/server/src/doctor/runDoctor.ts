import { checkConfig } from "./configCheck.js";
import { checkDatabase } from "./databaseCheck.js";
import { checkListeners } from "./listenersCheck.js";
import { checkNodeVersion } from "./nodeCheck.js";
import { checkPlugins } from "./pluginsCheck.js";
import { checkSecrets } from "./secretsCheck.js";
import { checkPluginSettings } from "./settingsCheck.js";
import { type CheckId, type DoctorCheck, type DoctorOptions, finding } from "./types.js";

/**
 * Checks what `racksmith serve` needs, without starting it or changing anything: the config, the plugins,
 * secret file permissions, the database, the listen addresses and Node.js. Reported in that order, one
 * finding per problem (each with its fix); a check that needs the config is skipped, saying so, when the
 * config cannot be loaded.
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorCheck[]> {
  const config = checkConfig(options);
  const loaded = config.loaded;
  if (!loaded) {
    const skipped = (id: CheckId) => finding(id, "skip", "not run: the config file has problems");
    return [
      ...config.checks,
      ...(["plugins", "secrets", "database", "listeners"] as const).map(skipped),
      checkNodeVersion(),
    ];
  }
  const plugins = await checkPlugins(loaded, options.cwd);
  let configChecks = config.checks;
  let pluginChecks = plugins.checks;
  if (plugins.allLoaded) {
    const settings = await checkPluginSettings(loaded, options.cwd);
    if (settings.config.length) configChecks = settings.config;
    if (settings.plugins.length) pluginChecks = settings.plugins;
  } else {
    configChecks = configChecks.map((check) => ({
      ...check,
      detail: `${check.detail}; the settings that need the plugins (drivers, fabrics) not checked: a plugin failed to load`,
    }));
  }
  const secrets = await checkSecrets(loaded, options.cwd);
  // Listeners first: an embedded database a running service holds must not be opened by a second process.
  const listeners = await checkListeners(loaded, options.cwd);
  const database = await checkDatabase(options, loaded, listeners.runningServiceAt);
  return [...configChecks, ...pluginChecks, ...secrets, database, ...listeners.checks, checkNodeVersion()];
}
