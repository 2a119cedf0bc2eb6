import type { BootTarget, ValidationRunner } from "@racksmith/core";
import type { HandlerContext, Outcome } from "@racksmith/core/engine";
import { transition, wait } from "@racksmith/core/engine";
import { HEALTH_CLASSIFICATIONS, type HealthProbeAlert, type HealthReport } from "@racksmith/core/health";
import type { MachineRow } from "../../explorer/index.js";
import type { LifecycleBmc } from "../bmc/bmcSession.js";
import type { BomValidation } from "../bom/index.js";
import type { ResolvedLifecycleConfig } from "../config.js";
import type { InstanceFabric } from "../fabrics/index.js";
import type { HostTestRuns } from "../hostTests/index.js";
import { decideReboot, OPEN_REBOOT_GATE, type RebootGate, RebootHeldError } from "../reboot/index.js";
import {
  type FailureCause,
  type FailureSource,
  type ManagedHostState,
  managedHostStateLabel,
} from "../states.js";
import type { RebootRequest } from "../tables.js";
import { dpuAgentAlerts } from "./dpuHealth.js";
import type { ManagedHostSnapshot } from "./snapshot.js";
import { recordRebootRequest } from "./writes.js";

/** Called before a force-deleted host's records go (fabric plugins detach its ports here). */
export type ForceDeletionHook = (
  host: { hostId: string; dpuIds: string[] },
  signal: AbortSignal,
) => Promise<void>;

/** What the lifecycle's handlers need besides the snapshot. */
export interface LifecycleDeps {
  config: ResolvedLifecycleConfig;
  /** The configured validation runners (resolved at startup). */
  validationRunners: () => readonly ValidationRunner[];
  forceDeletionHooks: readonly ForceDeletionHook[];
  /** The configured tenant fabrics (InfiniBand, NVLink) instances wait for; default none. */
  instanceFabrics?: () => readonly InstanceFabric[];
  clock: () => Date;
  /** The host's aggregate health (the health service); without it, its DPU agents' reports only. */
  hostHealth?: (hostId: string) => Promise<HealthReport>;
  /** SKU (BOM) validation, when a plugin registered SKU rules and the site enables it; default none. */
  bomValidation?: () => BomValidation | undefined;
  /** Machine validation tests the host agent runs, when a plugin registered host test rules; default none. */
  hostTestRuns?: () => HostTestRuns | undefined;
  /** The site-wide reboot caps and the service's load; default: no caps, never overloaded. */
  reboots?: RebootGate;
}

export type HostOutcome = Outcome<ManagedHostState>;

/** One handler run: the snapshot, the engine's context, BMCs, and the helpers every state uses. */
export class Step {
  readonly now: Date;
  private health: Promise<HealthProbeAlert[]> | undefined;

  constructor(
    readonly snapshot: ManagedHostSnapshot,
    readonly context: HandlerContext<ManagedHostState>,
    readonly deps: LifecycleDeps,
    private readonly bmcOf: (machine: MachineRow) => Promise<LifecycleBmc>,
  ) {
    this.now = deps.clock();
  }

  get config(): ResolvedLifecycleConfig {
    return this.deps.config;
  }

  get host(): MachineRow {
    return this.snapshot.host;
  }

  get enteredAt(): Date {
    return this.context.enteredAt;
  }

  /** The configured tenant fabrics (InfiniBand, NVLink). */
  get fabrics(): readonly InstanceFabric[] {
    return this.deps.instanceFabrics?.() ?? [];
  }

  bmc(machine: MachineRow): Promise<LifecycleBmc> {
    return this.bmcOf(machine);
  }

  /** Whether an agent timestamp is newer than the state entry (the rule for every wait). */
  since(at: Date | null | undefined): boolean {
    return at !== null && at !== undefined && at.getTime() > this.enteredAt.getTime();
  }

  dpu(id: string): MachineRow {
    const dpu = this.snapshot.dpus.find((d) => d.id === id);
    if (!dpu) throw new Error(`DPU ${id} of host ${this.host.id} is gone`);
    return dpu;
  }

  /** The primary DPU's host-facing MAC: what the host must boot from. */
  get bootMac(): string | undefined {
    return this.snapshot.dpus[0]?.host_facing_mac ?? undefined;
  }

  get reboots(): RebootGate {
    return this.deps.reboots ?? OPEN_REBOOT_GATE;
  }

  /**
   * A power action a state orders itself. A site-wide cap may hold it back: RebootHeldError ends the run as a
   * wait (the state runs again later); powering on never is.
   */
  async power(machine: MachineRow, action: RebootRequest["action"]): Promise<void> {
    const held = this.reboots.admit(machine.id, action === "On" ? "powerOn" : "required", this.now);
    if (held !== null) throw new RebootHeldError(machine.id, held);
    await this.powerAndRecord(machine, action, undefined);
  }

  /**
   * Sends the power action, then records it as the last reboot request with the time the BMC accepted it
   * (the backoff counts from there, not from when this run began).
   */
  private async powerAndRecord(
    machine: MachineRow,
    action: RebootRequest["action"],
    cycle: number | undefined,
  ): Promise<void> {
    await (await this.bmc(machine)).power(action);
    const request: RebootRequest = {
      at: this.deps.clock().toISOString(),
      action,
      ...(cycle === undefined ? {} : { cycle }),
    };
    this.context.defer((trx) => recordRebootRequest(trx, machine.id, request));
  }

  /**
   * A wait on the BMC's own state (a job, BIOS settings read back, the boot order, lockdown): nothing enqueues
   * the host when it changes, so the host is run again after `bmcPollIntervalMs`.
   */
  pollBmc(reason: string): HostOutcome {
    return wait(reason, { recheckAfterMs: this.config.bmcPollIntervalMs });
  }

  /** A wait that ends after `leftMs` (a power-down, a retry interval): the host is run again then. */
  waitFor(reason: string, leftMs: number): HostOutcome {
    return wait(reason, { recheckAfterMs: Math.max(1, Math.ceil(leftMs)) });
  }

  /**
   * The reboot/backoff helper for a wait: reboots the machine when due (at once on the first run with
   * `kick`), returns a wait with the reason, or Failed when the cycles are exhausted. With `bootOnce`, every
   * reboot that boots the machine (not a power-off) first sets that one-time boot override again: a wait for
   * what a boot of that image reports heals at the next cycle when the image or its report was lost (the
   * override a lost boot used is gone). Setting it is idempotent, so a run cut short before its final write
   * only sets it again.
   */
  async waitWithReboots(
    machine: MachineRow,
    reason: string,
    options: {
      kick: boolean;
      cause: FailureCause;
      source: FailureSource;
      bootOnce?: BootTarget;
      /** What is awaited shows on the BMC (see `pollBmc`), not in an agent's report. */
      pollBmc?: boolean;
    },
  ): Promise<HostOutcome> {
    const waiting = (text: string) => (options.pollBmc ? this.pollBmc(text) : wait(text));
    const decision = decideReboot({
      now: this.now,
      enteredAt: this.enteredAt,
      lastRequest: this.snapshot.reports.get(machine.id)?.last_reboot_request ?? null,
      policy: this.config,
      kick: options.kick,
      dpu: machine.kind === "dpu",
      suppressed: (await this.alerts(HEALTH_CLASSIFICATIONS.stopRebootForAutomaticRecovery)).length > 0,
      serviceUpSince: this.reboots.serviceUpSince,
      pausedMs: (from, to) => this.reboots.pausedMs(from, to),
      overloaded: this.reboots.overloaded(),
    });
    if (decision.kind === "giveUp")
      return this.fail(options.cause, options.source, `${reason}: ${decision.reason}`);
    if (decision.kind === "reboot") {
      const held = this.reboots.admit(machine.id, decision.reason, this.now);
      if (held !== null) return waiting(`${reason}; reboot of ${machine.id} held back: ${held}`);
      const override = options.bootOnce && decision.action !== "ForceOff" ? options.bootOnce : undefined;
      if (override) await (await this.bmc(machine)).bootOnce(override);
      await this.powerAndRecord(machine, decision.action, decision.cycle);
      const boot = override ? `boot once ${override}, ` : "";
      return waiting(`${reason} (${boot}${decision.action} of ${machine.id}, cycle ${decision.cycle})`);
    }
    return waiting(`${reason}; ${decision.reason}`);
  }

  fail(cause: FailureCause, source: FailureSource, message: string): HostOutcome {
    return transition<ManagedHostState>({
      state: "failed",
      details: {
        cause,
        source,
        message,
        failedAt: this.now.toISOString(),
        failedIn: managedHostStateLabel(this.context.state),
      },
    });
  }

  /** Alerts with a classification in the DPU agents' own reports (what gates DPU init, as in NICo). */
  dpuAlerts(classification: string): HealthProbeAlert[] {
    return this.allDpuAlerts().filter((alert) => alert.classifications.includes(classification));
  }

  private allDpuAlerts(): HealthProbeAlert[] {
    return dpuAgentAlerts(this.snapshot, this.now, this.config.dpuHeartbeatTimeoutMs, {
      missingIsSilent: false,
    });
  }

  /**
   * Alerts on the host with a classification: from its aggregate health when the health service is there,
   * else from its DPU agents' reports (HeartbeatTimeout for silent ones). Read once per run.
   */
  async alerts(classification: string): Promise<HealthProbeAlert[]> {
    this.health ??= this.deps.hostHealth
      ? this.deps.hostHealth(this.host.id).then((report) => report.alerts)
      : Promise.resolve(this.allDpuAlerts());
    return (await this.health).filter((alert) => alert.classifications.includes(classification));
  }
}
