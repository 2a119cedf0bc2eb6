import type { Logger } from "@racksmith/core";
import type { VirtualBmc } from "../fleet/index.js";
import type { AgentApi } from "./agentApi.js";
import { AgentStoppedError } from "./agentApi.js";
import { type AgentContext, delay } from "./agentContext.js";
import { MachineIdentity } from "./machineIdentity.js";
import type { AgentStatsCounter } from "./stats.js";
import type { AgentTiming } from "./types.js";

/** What every simulated machine shares. */
export interface SimDeps {
  readonly api: AgentApi;
  /** Whether agents ask for machine certificates and call over mTLS. */
  readonly mtls: boolean;
  readonly timing: AgentTiming;
  readonly stats: AgentStatsCounter;
  readonly logger: Logger;
}

/**
 * A machine whose agent starts some time after each boot and stops when the machine powers off or boots again.
 * At most one agent runs per machine; a stopped one holds no timer (its delay is cleared by the abort).
 */
export abstract class SimMachine {
  private controller: AbortController | undefined;
  /** The signal of the agent whose loop runs now (a stopped one may still be unwinding). */
  private runningSignal: AbortSignal | undefined;
  private silent = false;
  private waiters: Array<() => void> = [];
  /** The machine's key and certificate, and whether they outlive a boot (see {@link keepsIdentity}). */
  readonly identity: MachineIdentity;
  /**
   * Whether the agent's key and certificate survive a reboot: a DPU's agent runs from the DPU's installed OS
   * and keeps them on its disk; a host's runs from a discovery image booted afresh, with none.
   */
  protected abstract readonly keepsIdentity: boolean;

  constructor(
    readonly bmc: VirtualBmc,
    protected readonly deps: SimDeps,
  ) {
    this.identity = new MachineIdentity(bmc.id);
  }

  get agentRunning(): boolean {
    return this.runningSignal !== undefined && !this.runningSignal.aborted;
  }

  /** The agent's work, from its first call on; it returns only by throwing (a stop is an AgentStoppedError). */
  protected abstract runAgent(context: AgentContext): Promise<void>;

  /** Starts a fresh agent after the boot delay (any running one is stopped first). */
  protected startAgent(): void {
    this.stopAgent();
    const controller = new AbortController();
    this.controller = controller;
    void this.run(controller.signal);
  }

  stopAgent(): void {
    this.controller?.abort();
    this.controller = undefined;
  }

  /** While silent the agent waits before each call, without a timer, until it may speak again. */
  setSilent(silent: boolean): void {
    this.silent = silent;
    if (silent) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private waitAudible(signal: AbortSignal): Promise<void> {
    if (!this.silent) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(new AgentStoppedError());
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(() => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      });
    });
  }

  private async run(signal: AbortSignal): Promise<void> {
    const { stats, logger, timing, api } = this.deps;
    const kind = this.bmc.kind;
    try {
      await delay(timing.bootDelayMs, signal);
      this.runningSignal = signal;
      stats.running[kind] += 1;
      try {
        await this.runAgent({
          api,
          identity: this.identity,
          mtls: this.deps.mtls,
          keepsIdentity: this.keepsIdentity,
          onCertificate: () => {
            stats.certificatesIssued += 1;
          },
          timing,
          signal,
          logger,
          waitAudible: () => this.waitAudible(signal),
        });
      } finally {
        if (this.runningSignal === signal) this.runningSignal = undefined;
        stats.running[kind] -= 1;
      }
    } catch (error) {
      if (error instanceof AgentStoppedError) return;
      // A bug in the simulation, not a service failure (those are retried): say so, keep the others running.
      logger.error({ bmc: this.bmc.id, err: (error as Error).message }, "simulated agent crashed");
    }
  }
}
