import { PasswordChangeRequiredError, RedfishHttpError } from "@racksmith/core/redfish";
import { JobQueueBusyError, LockedDownError } from "../errors/index.js";
import { errorText } from "./httpErrors.js";

/** MessageIds the iDRAC answers when a committed configuration job blocks a change (SYS011, LC068). */
const JOB_CONFLICT_IDS = ["SYS011", "LC068"];
const JOB_CONFLICT_TEXT =
  /pending configuration values are already committed|configuration job is in progress/i;

function isRefusal(error: unknown): error is RedfishHttpError {
  return (
    error instanceof RedfishHttpError &&
    !(error instanceof PasswordChangeRequiredError) &&
    [400, 403, 409].includes(error.httpStatus)
  );
}

/**
 * Runs a change the iDRAC may refuse and says why it did: a committed configuration job (`bmc_job_queue_busy`)
 * or System Lockdown (`bmc_locked_down`). Any other failure is passed on as the BMC reported it.
 */
export async function explainRefusal<T>(
  operation: string,
  isLockedDown: () => Promise<boolean>,
  change: () => Promise<T>,
): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (!isRefusal(error)) throw error;
    const messageIds = error.messages.map((m) => m.messageId).filter(Boolean);
    if (JOB_CONFLICT_IDS.some((id) => error.hasMessageId(id)) || JOB_CONFLICT_TEXT.test(errorText(error))) {
      throw new JobQueueBusyError(
        `${operation}: the iDRAC has a configuration job committed for the next reboot (${error.message}); reboot to run it, or clear the job queue`,
        { messageIds },
        error,
      );
    }
    if (await isLockedDown().catch(() => false)) throw new LockedDownError(operation, undefined, error);
    throw error;
  }
}
