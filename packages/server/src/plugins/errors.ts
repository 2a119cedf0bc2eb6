import { ERROR_CODES, type ErrorCode, RacksmithError } from "@racksmith/core";

/**
 * Why a plugin cannot be used: the catalogue's `plugin_*` codes, each with the catalogue's status
 * (`plugin_not_found` is NOT_FOUND, the others FAILED_PRECONDITION).
 */
export type PluginErrorCode = Extract<ErrorCode, `plugin_${string}`>;

/** A plugin named in the config cannot be used; the message names the package and the fix. */
export class PluginLoadError extends RacksmithError {
  declare readonly code: PluginErrorCode;

  constructor(
    code: PluginErrorCode,
    readonly plugin: string,
    problem: string,
    readonly fix: string,
    options: { cause?: unknown } = {},
  ) {
    super(code, ERROR_CODES[code].status, `plugin ${plugin}: ${problem} — ${fix}`, {
      cause: options.cause,
      details: { plugin, problem, fix },
    });
  }
}
