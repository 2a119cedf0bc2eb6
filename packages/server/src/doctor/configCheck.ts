import { ConfigError, type LoadedConfig, loadConfig } from "../config/index.js";
import { configProblemFix } from "./configFixes.js";
import { displayPath } from "./paths.js";
import { type DoctorCheck, type DoctorOptions, finding } from "./types.js";

export interface ConfigCheckResult {
  checks: DoctorCheck[];
  /** Undefined when the config cannot be used: the checks that need it do not run. */
  loaded: LoadedConfig | undefined;
}

/** Loads the config as `racksmith serve` does; each problem of a `ConfigError` is one finding with its fix. */
export function checkConfig(options: Pick<DoctorOptions, "configFile" | "cwd">): ConfigCheckResult {
  try {
    const loaded = loadConfig({
      ...(options.configFile ? { file: options.configFile } : {}),
      cwd: options.cwd,
    });
    const plugins = loaded.config.plugins.length;
    const detail = loaded.file
      ? `${displayPath(loaded.file, options.cwd)}: valid, ${plugins} plugin${plugins === 1 ? "" : "s"}`
      : `no racksmith.yaml in ${options.cwd}: using the defaults`;
    return { checks: [finding("config", "ok", detail)], loaded };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { checks: configErrorFindings(error, options.cwd), loaded: undefined };
  }
}

/** One failed `config` finding per problem of the error, each naming its key and the edit that fixes it. */
export function configErrorFindings(error: ConfigError, cwd: string): DoctorCheck[] {
  const file = displayPath(error.file, cwd);
  return error.problems.map((problem) =>
    finding("config", "fail", `${file}: ${problem}`, configProblemFix(problem, file)),
  );
}
