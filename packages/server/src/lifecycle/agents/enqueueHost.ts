import type { Logger } from "@racksmith/core";
import { hasErrorCode } from "@racksmith/core";
import type { StateEngine } from "@racksmith/core/engine";
import { MANAGED_HOST_OBJECT_TYPE } from "../../explorer/machineStore.js";

/**
 * Asks the lifecycle to look at the host now. What the caller recorded stays recorded when the host has no
 * lifecycle object (yet): the periodic run, or the object's creation, picks it up, so this never fails the
 * caller's request.
 */
export async function enqueueHost(
  engine: Pick<StateEngine, "enqueue">,
  hostId: string,
  logger: Logger,
): Promise<void> {
  try {
    await engine.enqueue(MANAGED_HOST_OBJECT_TYPE, hostId);
  } catch (error) {
    if (!hasErrorCode(error, "state_object_not_found")) throw error;
    logger.warn({ hostId }, "managed host has no lifecycle object; not enqueued");
  }
}
