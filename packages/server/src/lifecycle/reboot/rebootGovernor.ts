import { Counter, Gauge, type Registry } from "prom-client";
import type { RebootKind } from "./decideReboot.js";
import { OverloadHistory } from "./overloadHistory.js";
import { pruneRebootTimes, type RebootCaps, rebootCapHolds } from "./rebootCaps.js";

/** What the lifecycle's reboot decisions need from the site: the service's load and the site-wide caps. */
export interface RebootGate {
  /** Since when this service has run (no agent could report before). */
  readonly serviceUpSince: Date;
  /** Why the service is overloaded now, or null. */
  overloaded(): string | null;
  pausedMs(from: Date, to: Date): number;
  /** Null when the reboot may go (it is counted from now), else why a cap holds it back. */
  admit(machineId: string, kind: RebootKind, now: Date): string | null;
}

/** What the lifecycle rebooted since the service started. */
export interface RebootStats {
  required: number;
  retry: number;
  powerOn: number;
  /** Reboots a cap held back (each time a due reboot was refused). */
  held: number;
  /** Machines a cap held back within the last minute. */
  holding: number;
  /** Reboots ordered within the last minute and within the settle window (what the caps compare). */
  lastMinute: number;
  inFlight: number;
  /** The most retries (reboots a wait ordered for lack of progress) any one machine had. */
  maxRetriesPerMachine: number;
}

const NO_CAPS: RebootCaps = { maxRebootsPerMinute: 0, maxRebootsInFlight: 0, rebootSettleMs: 0 };
const MINUTE = 60_000;

/** The site-wide reboot gate of one service: caps reboots per minute and in flight, knows the load. */
export class RebootGovernor implements RebootGate {
  readonly serviceUpSince: Date;
  private recent: number[] = [];
  private readonly heldAt = new Map<string, number>();
  private readonly retries = new Map<string, number>();
  private readonly counts = { required: 0, retry: 0, powerOn: 0, held: 0 };
  private rebootsMetric: Counter<"kind"> | undefined;

  constructor(
    private readonly caps: RebootCaps = NO_CAPS,
    private readonly load: OverloadHistory = new OverloadHistory(),
    clock: () => Date = () => new Date(),
  ) {
    this.serviceUpSince = clock();
  }

  overloaded(): string | null {
    return this.load.current;
  }

  pausedMs(from: Date, to: Date): number {
    return this.load.pausedMs(from, to);
  }

  admit(machineId: string, kind: RebootKind, now: Date): string | null {
    // Powering on a host a cycle switched off completes a reboot already counted.
    const holds = kind === "powerOn" ? null : rebootCapHolds(this.recent, now.getTime(), this.caps);
    if (holds !== null) {
      this.heldAt.set(machineId, now.getTime());
      this.counts.held += 1;
      this.rebootsMetric?.inc({ kind: "held" });
      return holds;
    }
    this.record(machineId, kind, now);
    return null;
  }

  private record(machineId: string, kind: RebootKind, now: Date): void {
    const at = now.getTime();
    this.recent = pruneRebootTimes(this.recent, at, this.caps);
    if (kind !== "powerOn") this.recent.push(at);
    this.heldAt.delete(machineId);
    this.counts[kind] += 1;
    if (kind === "retry") this.retries.set(machineId, (this.retries.get(machineId) ?? 0) + 1);
    this.rebootsMetric?.inc({ kind });
  }

  /** Reboots ordered before this service started (from the database), so a restart does not reset the caps. */
  seed(times: readonly Date[]): void {
    const all = [...this.recent, ...times.map((time) => time.getTime())].sort((a, b) => a - b);
    this.recent = pruneRebootTimes(all, this.serviceUpSince.getTime(), this.caps);
  }

  stats(now: Date = new Date()): RebootStats {
    const since = (times: Iterable<number>, windowMs: number) =>
      [...times].filter((at) => at > now.getTime() - windowMs).length;
    return {
      ...this.counts,
      holding: since(this.heldAt.values(), MINUTE),
      lastMinute: since(this.recent, MINUTE),
      inFlight: since(this.recent, this.caps.rebootSettleMs),
      maxRetriesPerMachine: Math.max(0, ...this.retries.values()),
    };
  }

  /** Prometheus: reboots by kind (and held), machines held back now, the service's overload. */
  bindMetrics(registry: Registry): void {
    const registers = [registry];
    this.rebootsMetric = new Counter({
      name: "racksmith_lifecycle_reboots_total",
      help: "Lifecycle power actions by kind: required (a state's own), retry (a wait without progress), powerOn (end of a power cycle), held (refused by a site-wide cap)",
      labelNames: ["kind"],
      registers,
    });
    const governor = this;
    new Gauge({
      name: "racksmith_lifecycle_reboot_status",
      help: "holding: machines a site-wide reboot cap held back in the last minute; last_minute, in_flight: reboots ordered in the last minute and the settle window; max_retries_per_machine: the most retry reboots of one machine; overloaded: 1 while reboot timers are paused",
      labelNames: ["figure"],
      registers,
      collect() {
        const stats = governor.stats();
        this.set({ figure: "holding" }, stats.holding);
        this.set({ figure: "last_minute" }, stats.lastMinute);
        this.set({ figure: "in_flight" }, stats.inFlight);
        this.set({ figure: "max_retries_per_machine" }, stats.maxRetriesPerMachine);
        this.set({ figure: "overloaded" }, governor.overloaded() === null ? 0 : 1);
      },
    });
  }
}

/** No caps, never overloaded: the gate of a lifecycle built without a governor (tests, tools). */
export const OPEN_REBOOT_GATE: RebootGate = Object.freeze({
  serviceUpSince: new Date(0),
  overloaded: () => null,
  pausedMs: () => 0,
  admit: () => null,
});
