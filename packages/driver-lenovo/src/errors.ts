import { RacksmithError } from "@racksmith/core";

/** The XCC lists no boot entry for the requested target; `available` shows what it does list. */
export class BootEntryNotFoundError extends RacksmithError {
  constructor(what: string, available: readonly string[]) {
    // Same stable code as RedfishStandard's, so callers branch on one code for every driver.
    super("boot_option_not_found", "FAILED_PRECONDITION", `the XCC lists no boot entry for ${what}`, {
      details: { target: what, available: [...available] },
    });
  }
}
