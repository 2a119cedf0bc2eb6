import { RacksmithError } from "@racksmith/core";

/**
 * The `fabrics.nvlink` section is invalid or a file it names cannot be read. Same code as the core's config
 * errors so the CLI treats both alike; `problems` has one line per problem, each naming its key.
 */
export class NmxmConfigError extends RacksmithError {
  readonly problems: readonly string[];

  constructor(problems: readonly string[], options: { cause?: unknown } = {}) {
    super("config_invalid", "INVALID_ARGUMENT", `invalid NVLink fabric config: ${problems.join("; ")}`, {
      details: { problems },
      ...options,
    });
    this.problems = problems;
  }
}
