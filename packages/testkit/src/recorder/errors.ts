import { RacksmithError } from "@racksmith/core";

/** The output folder already holds files and `overwrite` was not asked for: nothing is written. */
export class RecorderOutputNotEmptyError extends RacksmithError {
  constructor(readonly out: string) {
    super(
      "recorder_output_not_empty",
      "FAILED_PRECONDITION",
      `${out} is not empty: record into a new folder, or pass overwrite to replace files in it`,
      { details: { out } },
    );
  }
}

/** The service root could not be read, so there is nothing to record. */
export class RecorderServiceRootError extends RacksmithError {
  constructor(address: string, cause: unknown) {
    super(
      "recorder_service_root_unreadable",
      "UNAVAILABLE",
      `cannot record ${address}: reading /redfish/v1 failed: ${(cause as Error)?.message ?? String(cause)}`,
      { cause, details: { address } },
    );
  }
}

/** The BMC refused the credentials (HTTP 401 after the client's own re-login): the recording stops. */
export class RecorderAuthenticationError extends RacksmithError {
  constructor(address: string, out: string, cause: unknown) {
    super(
      "recorder_authentication_failed",
      "UNAUTHENTICATED",
      `cannot record ${address}: the BMC refused the credentials (HTTP 401); the partial recording in ${out} is incomplete`,
      { cause, details: { address, out } },
    );
  }
}
