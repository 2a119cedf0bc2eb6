import { type AgentContext, callWithRetry, delay, isNotFound } from "./agentContext.js";
import type { MachineInventory } from "./messages.js";

/**
 * DiscoverMachine until the service knows the machine: NOT_FOUND means the site has not ingested it yet (the
 * host's exploration may still be running), so ask again slowly; other failures are retried with backoff.
 * With mTLS it sends a CSR for a new key, and from the certificate in the answer on calls over mTLS — unless
 * the machine keeps its identity across boots (`keepsIdentity`) and holds a certificate not yet due for
 * renewal, which it uses again when it names the machine the service answers with.
 */
export async function discoverMachine(context: AgentContext, inventory: MachineInventory): Promise<string> {
  const { identity } = context;
  for (;;) {
    try {
      const reuse = context.keepsIdentity && identity.fresh();
      const csrPem = context.mtls && !reuse ? await identity.request() : undefined;
      const answer = await callWithRetry(context, "DiscoverMachine", {
        inventory,
        ...(csrPem ? { csrPem } : {}),
      });
      if (csrPem && identity.accept(answer.certificate, answer.machineId)) context.onCertificate();
      if (!reuse || identity.reusableFor(answer.machineId)) return answer.machineId;
      // The service knows the machine by another id now (its record was made anew): ask for a certificate.
      identity.forget();
      continue;
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    await delay(context.timing.notFoundRetryMs, context.signal);
  }
}
