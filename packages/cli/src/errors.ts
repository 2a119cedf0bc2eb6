import { RacksmithError } from "@racksmith/core/errors";

/** A command line that cannot be run as written: exit code 2 with the command's help hint. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command = "racksmith",
  ) {
    super(message);
    this.name = "UsageError";
  }
}

/** The command already reported its failure (e.g. a failed conformance table): exit 1, print nothing more. */
export class ReportedFailure extends Error {
  constructor() {
    super("reported failure");
    this.name = "ReportedFailure";
  }
}

/** The BMC refused the credentials the command was given (HTTP 401 on an authenticated read). */
export class BmcAuthenticationError extends RacksmithError {
  constructor(user: string, address: string, options: { cause?: unknown } = {}) {
    super(
      "bmc_auth_failed",
      "UNAUTHENTICATED",
      `authentication failed for user ${user} at ${address} (HTTP 401): check --username and --password (or --password-file)`,
      { details: { user, address }, ...(options.cause === undefined ? {} : { cause: options.cause }) },
    );
  }
}
