import { doNothing, transition } from "@racksmith/core/engine";
import type { HostOutcome, Step } from "../machine/step.js";
import { setAdminNetwork, terminateInstance } from "../machine/writes.js";
import { recheckBomOfReadyHost } from "./bomValidating.js";
import { validateOnDemand } from "./validation.js";

/**
 * Ready: picks up an allocated instance — the host leaves the admin network (a new network config version
 * for its DPUs) — or goes through BOM validation again when an operator asked to verify its SKU, or runs the
 * validation tests an operator asked for. An instance released before it was picked up ends here.
 */
export async function handleReady(step: Step): Promise<HostOutcome> {
  const instance = step.snapshot.instance;
  if (!instance) {
    const bom = await recheckBomOfReadyHost(step);
    return bom.kind === "transition" ? bom : validateOnDemand(step);
  }
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
