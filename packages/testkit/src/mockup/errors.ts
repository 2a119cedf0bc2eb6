import { RacksmithError } from "@racksmith/core";

/** The folder given as a mockup holds no Redfish service root in any of the layouts we understand. */
export class MockupRootNotFoundError extends RacksmithError {
  constructor(
    readonly directory: string,
    looked: readonly string[],
  ) {
    super(
      "mockup_root_not_found",
      "NOT_FOUND",
      `${directory} is not a Redfish mockup: none of ${looked.join(", ")} is a service root`,
      { details: { directory, looked } },
    );
  }
}

/** A fault rule (given in code or in a fault file) is invalid; `field` names the bad field. */
export class InvalidFaultRuleError extends RacksmithError {
  constructor(
    readonly field: string,
    problem: string,
    readonly file?: string,
  ) {
    super("mockup_fault_invalid", "INVALID_ARGUMENT", `${file ? `${file}: ` : ""}${field} ${problem}`, {
      details: { field, ...(file ? { file } : {}) },
    });
  }
}

/** The HTTP(S) listener could not start (port in use, bad host, certificate generation failed). */
export class MockupServerStartError extends RacksmithError {
  constructor(address: string, reason: string, cause: unknown) {
    super(
      "mockup_server_start_failed",
      "UNAVAILABLE",
      `mockup server cannot listen on ${address}: ${reason}`,
      {
        cause,
        details: { address },
      },
    );
  }
}
