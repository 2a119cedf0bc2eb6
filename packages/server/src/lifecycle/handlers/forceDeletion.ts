import { deleted } from "@racksmith/core/engine";
import type { HostOutcome, Step } from "../machine/step.js";
import { deleteManagedHost } from "../machine/writes.js";

/** Detaches the host from every fabric (hooks), then removes it and all its records. */
export async function handleForceDeletion(step: Step): Promise<HostOutcome> {
  const host = { hostId: step.host.id, dpuIds: step.snapshot.dpus.map((d) => d.id) };
  for (const hook of step.deps.forceDeletionHooks) await hook(host, step.context.signal);
  for (const fabric of step.fabrics) await fabric.detachHost(host, step.context.signal);
  step.context.defer((trx) => deleteManagedHost(trx, host.hostId));
  return deleted();
}
