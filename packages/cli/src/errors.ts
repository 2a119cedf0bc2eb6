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
