import { hasErrorCode } from "@racksmith/core";
import { RebootHeldError } from "../reboot/index.js";

/**
 * Rethrows what is not the BMC step's own failure, so it ends the run as a handler error (state kept, run again)
 * instead of spending one of the step's retries: a reboot a site-wide cap holds back, or a database that went
 * away while the step read its BMC's credentials.
 */
export function rethrowUnlessStepFailure(error: unknown): void {
  if (error instanceof RebootHeldError || hasErrorCode(error, "database_unavailable")) throw error;
}
