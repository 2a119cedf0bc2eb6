import { doNothing, transition } from "@racksmith/core/engine";
import type { HostOutcome, Step } from "../machine/step.js";
import { setAdminNetwork, terminateInstance } from "../machine/writes.js";

/**
 * Ready: picks up an allocated instance — the host leaves the admin network (a new network config version
 * for its DPUs) — or does nothing. An instance released before it was picked up ends here.
 */
export function handleReady(step: Step): HostOutcome {
  const instance = step.snapshot.instance;
  if (!instance) return doNothing();
  const now = step.now;
  if (instance.release_requested_at) {
    step.context.defer((trx) => terminateInstance(trx, instance.id, now));
    return doNothing();
  }
  step.context.defer((trx) => setAdminNetwork(trx, step.host.id, false, now));
  return transition({
    state: "assigned",
    instanceId: instance.id,
    instanceState: { step: "waitingForNetworkConfig" },
  });
}
