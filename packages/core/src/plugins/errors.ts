import { RacksmithError } from "../errors/index.js";

export type PluginErrorCode =
  | "plugin_not_found"
  | "plugin_import_failed"
  | "plugin_invalid"
  | "plugin_api_version_mismatch"
  | "plugin_core_version_mismatch"
  | "plugin_duplicate"
  | "plugin_register_failed";

/** A plugin named in the config cannot be used; the message names the package and the fix. */
export class PluginLoadError extends RacksmithError {
  constructor(
    code: PluginErrorCode,
    readonly plugin: string,
    problem: string,
    readonly fix: string,
    options: { cause?: unknown } = {},
  ) {
    super(
      code,
      code === "plugin_not_found" ? "NOT_FOUND" : "FAILED_PRECONDITION",
      `plugin ${plugin}: ${problem} — ${fix}`,
      {
        cause: options.cause,
        details: { plugin, problem, fix },
      },
    );
  }
}
