import type { MockupPowerChange } from "@racksmith/testkit";
import { AgentCallError } from "./agentApi.js";
import { type AgentContext, call, callWithRetry, delay, isNotFound } from "./agentContext.js";
import { discoverMachine } from "./discover.js";
import type { DpuMachine } from "./dpuMachine.js";
import { type HostTestBehaviour, runSimulatedTest } from "./hostTests.js";
import { hostInventory } from "./inventory.js";
import type { AgentControlResponse, MachineInventory } from "./messages.js";
import { SimMachine } from "./simMachine.js";

/**
 * A host whose discovery image runs the host agent after every boot (the tenant OS is not modelled). Its power
 * feeds its DPUs: powering off stops them, powering on (from off, or through a power cycle) boots them; a warm
 * restart (ForceRestart, GracefulRestart) leaves them running.
 */
export class HostMachine extends SimMachine {
  protected readonly keepsIdentity = false;
  readonly dpus: DpuMachine[] = [];
  powered = true;
  cleanupFailure: string | null = null;
  /** How each host test (by id) goes on this host; a test not listed passes. */
  readonly testBehaviours = new Map<string, HostTestBehaviour>();
  /** GPUs the host agent leaves out of its inventory (a GPU fallen off the bus). */
  missingGpus = 0;
  private inventory: Promise<MachineInventory> | undefined;

  powerChanged(change: MockupPowerChange): void {
    if (change.booted) {
      const dpusPowerCycled =
        !this.powered ||
        change.powerStateBefore === "Off" ||
        change.resetType === "PowerCycle" ||
        // Vendor resets are AC power cycles: auxiliary power, and so the DPUs, drop too.
        !/ComputerSystem\.Reset$/i.test(change.action);
      this.powered = true;
      this.deps.stats.bootsSeen += 1;
      this.startAgent();
      if (dpusPowerCycled) for (const dpu of this.dpus) dpu.hostPoweredOn();
    } else if (change.powerStateAfter !== "On") {
      this.powered = false;
      this.stopAgent();
      for (const dpu of this.dpus) dpu.hostPoweredOff();
    }
  }

  /** Read once: the hardware does not change, and a thousand hosts rebooting should not re-read it. */
  private hardware(): Promise<MachineInventory> {
    this.inventory ??= hostInventory(this.bmc).catch((error: unknown) => {
      this.inventory = undefined;
      throw error;
    });
    return this.inventory;
  }

  /** What the host agent reports: the hardware, less the GPUs that went missing. */
  private async reported(): Promise<MachineInventory> {
    const hardware = await this.hardware();
    if (this.missingGpus === 0) return hardware;
    return {
      ...hardware,
      gpus: hardware.gpus.slice(0, Math.max(0, hardware.gpus.length - this.missingGpus)),
    };
  }

  protected async runAgent(context: AgentContext): Promise<void> {
    const inventory = await this.reported();
    let machineId = await this.identify(context, inventory);
    let backoff = context.timing.retryMs;
    for (;;) {
      try {
        const control = await call(context, "AgentControl", { machineId });
        await this.act(context, machineId, control, inventory);
        backoff = context.timing.retryMs;
        await delay(context.timing.pollIntervalMs, context.signal);
      } catch (error) {
        if (!(error instanceof AgentCallError)) throw error;
        if (isNotFound(error)) {
          machineId = await this.identify(context, inventory);
          continue;
        }
        await delay(backoff, context.signal);
        backoff = Math.min(backoff * 2, context.timing.maxBackoffMs);
      }
    }
  }

  /** DiscoverMachine, then RebootCompleted: the agent tells the service the host booted. */
  private async identify(context: AgentContext, inventory: MachineInventory): Promise<string> {
    for (;;) {
      const machineId = await discoverMachine(context, inventory);
      try {
        await callWithRetry(context, "RebootCompleted", { machineId });
        return machineId;
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
      await delay(context.timing.notFoundRetryMs, context.signal);
    }
  }

  /** A run of host tests: each test in turn, as its scenario behaviour says, then the results in one report. */
  private async runTests(
    context: AgentContext,
    machineId: string,
    control: AgentControlResponse,
  ): Promise<void> {
    const results = [];
    for (const spec of control.tests ?? []) {
      results.push(await runSimulatedTest(spec, this.testBehaviours.get(spec.id) ?? "pass", context.signal));
    }
    await callWithRetry(context, "ValidationCompleted", {
      machineId,
      context: control.validationContext,
      passed: results.every((result) => result.passed),
      results,
      runId: control.validationRunId,
    });
  }

  /** Actions run inline, so the loop never starts one while the previous is still running. */
  private async act(
    context: AgentContext,
    machineId: string,
    control: AgentControlResponse,
    inventory: MachineInventory,
  ): Promise<void> {
    const { timing, signal } = context;
    switch (control.action) {
      case "discovery":
        // Discovery inventories the host afresh: a GPU lost or restored since boot shows.
        await delay(timing.discoveryDelayMs, signal);
        await callWithRetry(context, "DiscoverMachine", { inventory: await this.reported() });
        await callWithRetry(context, "DiscoveryCompleted", { machineId });
        return;
      case "cleanup": {
        await delay(timing.cleanupDelayMs, signal);
        const failure = this.cleanupFailure;
        await callWithRetry(context, "CleanupCompleted", {
          machineId,
          success: failure === null,
          message: failure ?? "",
        });
        return;
      }
      case "validation": {
        if (control.validationRunId) {
          await this.runTests(context, machineId, control);
          return;
        }
        await callWithRetry(context, "ValidationCompleted", {
          machineId,
          context: control.validationContext,
          passed: true,
          results: [{ name: "simulated-smoke-test", passed: true, message: "passed", durationMs: "1" }],
        });
        return;
      }
      case "reset":
        // The service asks for the machine to be identified afresh (its record was reset).
        await callWithRetry(context, "DiscoverMachine", { inventory });
        return;
      default:
        // noop, or an action this simulation does not know.
        return;
    }
  }
}
