import { RacksmithError } from "@racksmith/core";

/** The config file is missing, unreadable or invalid; `problems` lists each one with its key path. */
export class ConfigError extends RacksmithError {
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super("config_invalid", "INVALID_ARGUMENT", `${file}: ${problems.join("; ")}`, {
      details: { file, problems },
    });
  }
}
