export { HostTestsNotLoadedError } from "../lifecycle/index.js";

import { RacksmithError } from "@racksmith/core";
import { excerpt } from "../api/index.js";

export class ValidationTestNotFoundError extends RacksmithError {
  constructor(readonly testId: string) {
    super("validation_test_not_found", "NOT_FOUND", `no validation test ${excerpt(testId)}`, {
      details: { testId },
    });
  }
}

export class ValidationTestExistsError extends RacksmithError {
  constructor(readonly testId: string) {
    super(
      "validation_test_exists",
      "ALREADY_EXISTS",
      `validation test ${excerpt(testId)} exists already: update it (racksmith validation test update) or give the new one another id`,
      { details: { testId } },
    );
  }
}

export class ValidationTestReadOnlyError extends RacksmithError {
  constructor(
    readonly testId: string,
    action: string,
  ) {
    super(
      "validation_test_read_only",
      "FAILED_PRECONDITION",
      `validation test ${testId} is built in: it cannot be ${action} (only enabled or disabled); add a test of your own instead`,
      { details: { testId } },
    );
  }
}

export class ValidationRunNotAllowedError extends RacksmithError {
  constructor(
    readonly hostId: string,
    readonly state: string,
  ) {
    super(
      "validation_run_not_allowed",
      "FAILED_PRECONDITION",
      `host ${hostId} is ${state}: on-demand validation runs only on Ready hosts without an instance`,
      { details: { hostId, state } },
    );
  }
}

export class ValidationRunNotFoundError extends RacksmithError {
  constructor(readonly runId: string) {
    super("validation_run_not_found", "NOT_FOUND", `no validation run ${excerpt(runId)}`, {
      details: { runId },
    });
  }
}
