import { status } from "@grpc/grpc-js";
import type { Logger } from "@racksmith/core";
import { type AgentApi, AgentCallError, AgentStoppedError } from "./agentApi.js";
import type { MachineIdentity } from "./machineIdentity.js";
import type { AgentRpcName, AgentRpcs } from "./messages.js";
import type { AgentTiming } from "./types.js";

/** What one running agent works with. `signal` aborts when its machine powers off or reboots. */
export interface AgentContext {
  readonly api: AgentApi;
  /** The machine's key and certificate: its calls go over mTLS once it holds one. */
  readonly identity: MachineIdentity;
  /** Whether the agent asks for a certificate at DiscoverMachine. */
  readonly mtls: boolean;
  /** Whether the machine keeps its key and certificate across boots (its agent's disk survives a reboot). */
  readonly keepsIdentity: boolean;
  /** Called when the service signed a certificate for the machine. */
  readonly onCertificate: () => void;
  readonly timing: AgentTiming;
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /** Resolves at once unless the agent is silenced, then when it is not any more (rejects when stopped). */
  readonly waitAudible: () => Promise<void>;
}

/** ±10 %, so a thousand agents booted together drift apart instead of polling in lockstep. */
export function jittered(ms: number): number {
  return ms * (0.9 + Math.random() * 0.2);
}

/**
 * A timer that a stopped agent clears at once (rejects with {@link AgentStoppedError}); jittered unless
 * `exact` (a test's timeout is a bound, not a pace).
 */
export function delay(ms: number, signal: AbortSignal, exact = false): Promise<void> {
  if (signal.aborted) return Promise.reject(new AgentStoppedError());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AgentStoppedError());
    };
    const timer = setTimeout(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      exact ? ms : jittered(ms),
    );
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** One call, made only while the agent may speak. */
export async function call<Name extends AgentRpcName>(
  context: AgentContext,
  name: Name,
  request: AgentRpcs[Name][0],
): Promise<AgentRpcs[Name][1]> {
  await context.waitAudible();
  return context.api.callAs(context.identity, name, request, context.signal);
}

export function isNotFound(error: unknown): boolean {
  return error instanceof AgentCallError && error.code === status.NOT_FOUND;
}

/**
 * A call retried with a doubling backoff until it succeeds: the service may be down or restarting. NOT_FOUND
 * (the machine is unknown to the site) and a stop are the caller's to handle and are rethrown.
 */
export async function callWithRetry<Name extends AgentRpcName>(
  context: AgentContext,
  name: Name,
  request: AgentRpcs[Name][0],
): Promise<AgentRpcs[Name][1]> {
  let backoff = context.timing.retryMs;
  for (;;) {
    try {
      return await call(context, name, request);
    } catch (error) {
      if (!(error instanceof AgentCallError) || error.code === status.NOT_FOUND) throw error;
      context.logger.debug({ rpc: name, code: error.codeName }, "agent call failed, retrying");
      await delay(backoff, context.signal);
      backoff = Math.min(backoff * 2, context.timing.maxBackoffMs);
    }
  }
}
