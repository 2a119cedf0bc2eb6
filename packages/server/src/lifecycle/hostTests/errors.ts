import { RacksmithError } from "@racksmith/core";

/** A machine validation call (or an agent's report of a run) while no loaded plugin registers host test rules. */
export class HostTestsNotLoadedError extends RacksmithError {
  constructor() {
    super(
      "host_tests_not_loaded",
      "FAILED_PRECONDITION",
      "no loaded plugin registers host test rules: add @racksmith/validation-host-tests (or another host test plugin) to plugins",
    );
  }
}
