import { type AgentContext, callWithRetry, delay, isNotFound } from "./agentContext.js";
import type { MachineInventory } from "./messages.js";

/**
 * DiscoverMachine until the service knows the machine: NOT_FOUND means the site has not ingested it yet (the
 * host's exploration may still be running), so ask again slowly; other failures are retried with backoff.
 * With mTLS it sends a CSR for a new key, and from the certificate in the answer on calls over mTLS.
 */
export async function discoverMachine(context: AgentContext, inventory: MachineInventory): Promise<string> {
  for (;;) {
    try {
      const csrPem = context.mtls ? await context.identity.request() : undefined;
      const answer = await callWithRetry(context, "DiscoverMachine", {
        inventory,
        ...(csrPem ? { csrPem } : {}),
      });
      if (csrPem && context.identity.accept(answer.certificate)) context.onCertificate();
      return answer.machineId;
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    await delay(context.timing.notFoundRetryMs, context.signal);
  }
}
