import { RacksmithError } from "@racksmith/core";

/**
 * A simulated site cannot resume: its folder or its service holds another site (other hosts or seed, so other
 * machines). The message says what differs and how to start afresh.
 */
export class SimulatedSiteMismatchError extends RacksmithError {
  constructor(
    /** What holds the other site: the site folder, or the service's URL. */
    readonly where: string,
    readonly differences: readonly string[],
    readonly fix: string,
  ) {
    super(
      "simulated_site_mismatch",
      "FAILED_PRECONDITION",
      `${where} holds another simulated site: ${differences.join("; ")} — ${fix}`,
      { details: { where, differences, fix } },
    );
  }
}
