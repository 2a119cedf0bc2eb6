import type { MockupPowerChange } from "@racksmith/testkit";
import { AgentCallError } from "./agentApi.js";
import { type AgentContext, call, callWithRetry, delay, isNotFound } from "./agentContext.js";
import { discoverMachine } from "./discover.js";
import { dpuInventory } from "./inventory.js";
import {
  type DpuNetworkStatus,
  type HealthProbeAlert,
  type InterfaceObservation,
  type ManagedHostNetworkConfig,
  timestamp,
} from "./messages.js";
import { SimMachine } from "./simMachine.js";
import type { DpuHealthAlert } from "./types.js";

export const DPU_AGENT_VERSION = "racksmith-simulated-dpu-agent/0.1.0";
const HEALTH_SOURCE = "forge-dpu-agent";
const HEALTH_PROBES = ["BgpPeering", "ContainerHealth"];

/** The configuration versions a DPU has applied, and the interfaces they gave it. */
interface AppliedConfig {
  readonly managed: string;
  readonly instanceId: string | undefined;
  readonly instance: string | undefined;
  readonly interfaces: InterfaceObservation[];
}

/**
 * A BlueField: no Racksmith OS until one boot over HTTP (a pending `UefiHttp` override) installed it; from then
 * on each boot starts the DPU agent. It is powered by its host: it runs only while the host is on, and boots
 * again when the host powers on.
 */
export class DpuMachine extends SimMachine {
  protected readonly keepsIdentity = true;
  osInstalled = false;
  /** Its own system's power, as its BMC says (the BMC itself runs on standby power). */
  private ownPowered = true;
  private hostPowered = true;
  private alerts: HealthProbeAlert[] = [];

  /** The host's power at the start (a `poweredOff` host keeps its DPUs dark too). */
  setHostPower(on: boolean): void {
    this.hostPowered = on;
  }

  /** A reset through the DPU's own BMC. */
  powerChanged(change: MockupPowerChange): void {
    if (change.booted) {
      this.ownPowered = true;
      // Without host power the Arm cores do not run: the reset leaves no trace but the BMC's power state.
      if (!this.hostPowered) return;
      if (change.bootOverride?.target === "UefiHttp") {
        // A fresh OS on a wiped disk: the agent's old key is gone.
        this.identity.forget();
        this.osInstalled = true;
        this.deps.stats.osInstalls += 1;
      }
      this.boot();
    } else if (change.powerStateAfter !== "On") {
      this.ownPowered = false;
      this.stopAgent();
    }
  }

  hostPoweredOn(): void {
    this.hostPowered = true;
    if (this.ownPowered) this.boot();
  }

  hostPoweredOff(): void {
    this.hostPowered = false;
    this.stopAgent();
  }

  setHealth(alerts: readonly DpuHealthAlert[]): void {
    const since = new Map(this.alerts.map((alert) => [`${alert.id}\u0000${alert.target ?? ""}`, alert]));
    const now = timestamp(Date.now());
    this.alerts = alerts.map((alert) => ({
      id: alert.id,
      ...(alert.target !== undefined ? { target: alert.target } : {}),
      // An alert that persists keeps the time it was first raised.
      inAlertSince: since.get(`${alert.id}\u0000${alert.target ?? ""}`)?.inAlertSince ?? now,
      message: alert.message,
      ...(alert.tenantMessage !== undefined ? { tenantMessage: alert.tenantMessage } : {}),
      classifications: [...(alert.classifications ?? [])],
    }));
  }

  private boot(): void {
    this.deps.stats.bootsSeen += 1;
    if (this.osInstalled) this.startAgent();
    else this.stopAgent();
  }

  protected async runAgent(context: AgentContext): Promise<void> {
    const inventory = await dpuInventory(this.bmc);
    let applied: AppliedConfig | undefined;
    for (;;) {
      const dpuId = await discoverMachine(context, inventory);
      try {
        await callWithRetry(context, "DiscoveryCompleted", { machineId: dpuId });
        await callWithRetry(context, "RebootCompleted", { machineId: dpuId });
        applied = await this.pollNetworkConfig(context, dpuId, applied);
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
      // The service forgot the DPU (or never knew it): discover again, slowly.
      await delay(context.timing.notFoundRetryMs, context.signal);
    }
  }

  /** Config, apply when it changed, status (the heartbeat) — every poll. Throws NOT_FOUND to the caller. */
  private async pollNetworkConfig(
    context: AgentContext,
    dpuId: string,
    previous: AppliedConfig | undefined,
  ): Promise<AppliedConfig | undefined> {
    const { timing, signal } = context;
    let applied = previous;
    let backoff = timing.retryMs;
    for (;;) {
      try {
        const config = await call(context, "GetManagedHostNetworkConfig", { dpuId });
        if (!applied || changed(applied, config)) {
          await delay(timing.applyDelayMs, signal);
          applied = appliedFrom(config);
        }
        await call(context, "RecordDpuNetworkStatus", this.status(dpuId, applied));
        backoff = timing.retryMs;
        await delay(timing.pollIntervalMs, signal);
      } catch (error) {
        if (!(error instanceof AgentCallError) || isNotFound(error)) throw error;
        await delay(backoff, signal);
        backoff = Math.min(backoff * 2, timing.maxBackoffMs);
      }
    }
  }

  private status(dpuId: string, applied: AppliedConfig): DpuNetworkStatus {
    const alerting = new Set(this.alerts.map((alert) => alert.id));
    return {
      dpuId,
      appliedManagedHostConfigVersion: applied.managed,
      ...(applied.instanceId && applied.instance !== undefined
        ? { appliedInstanceConfigVersion: applied.instance }
        : {}),
      interfaces: applied.interfaces,
      health: {
        source: HEALTH_SOURCE,
        observedAt: timestamp(Date.now()),
        successes: HEALTH_PROBES.filter((id) => !alerting.has(id)).map((id) => ({ id })),
        alerts: this.alerts,
      },
      agentVersion: DPU_AGENT_VERSION,
    };
  }
}

function changed(applied: AppliedConfig, config: ManagedHostNetworkConfig): boolean {
  return (
    applied.managed !== config.managedHostConfigVersion ||
    applied.instanceId !== (config.instanceId || undefined) ||
    applied.instance !== config.instanceConfigVersion
  );
}

function appliedFrom(config: ManagedHostNetworkConfig): AppliedConfig {
  const tenant = !config.useAdminNetwork && config.tenantInterfaces.length > 0;
  const wanted = tenant ? config.tenantInterfaces : config.adminInterface ? [config.adminInterface] : [];
  return {
    managed: config.managedHostConfigVersion,
    instanceId: config.instanceId || undefined,
    instance: config.instanceConfigVersion,
    interfaces: wanted.map((entry) => ({ function: entry.function, network: entry.network, linkUp: true })),
  };
}
