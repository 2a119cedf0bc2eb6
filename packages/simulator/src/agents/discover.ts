import { type AgentContext, callWithRetry, delay, isNotFound } from "./agentContext.js";
import type { MachineInventory } from "./messages.js";

/**
 * DiscoverMachine until the service knows the machine: NOT_FOUND means the site has not ingested it yet (the
 * host's exploration may still be running), so ask again slowly; other failures are retried with backoff.
 */
export async function discoverMachine(context: AgentContext, inventory: MachineInventory): Promise<string> {
  for (;;) {
    try {
      return (await callWithRetry(context, "DiscoverMachine", { inventory })).machineId;
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    await delay(context.timing.notFoundRetryMs, context.signal);
  }
}
