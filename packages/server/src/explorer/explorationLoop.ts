import type { Logger } from "@racksmith/core";
import { tryAcquireWorkLock } from "@racksmith/core/engine";
import { channelName, type Database } from "../db/index.js";
import { BMC_ENDPOINTS_CHANGED_TOPIC } from "../inventory/contracts.js";

/** The work lock one replica holds per exploration interval. */
export const SITE_EXPLORER_WORK_LOCK = "site-explorer";
/** Requests for a run soon are debounced this long by default (several re-explore calls start one run). */
const POKE_DELAY_MS = 200;
/** Default wait between the inventory announcing new BMC endpoints and the run exploring them. */
export const NEW_ENDPOINT_DELAY_MS = 5_000;

export interface ExplorationLoopOptions {
  database: Database;
  /** This replica's work-lock owner id. */
  owner: string;
  intervalMs: number;
  /** Runs stop starting explorations this long before the lock ends, so no run outlives it. */
  marginMs: number;
  /**
   * One run; `deadline` (epoch ms) is when it must stop starting explorations. `backlog`: it left endpoints
   * never explored, so the next run starts `newEndpointDelayMs` later rather than an interval later.
   */
  run(deadline: number): Promise<{ backlog: boolean } | undefined>;
  logger: Logger;
  random?: () => number;
  /** Debounce of run requests (default 200 ms). */
  pokeDelayMs?: number;
  /**
   * How long after the inventory announces a new BMC endpoint (a first DHCP lease, a new address) a run
   * starts; announcements meanwhile join that run, so there is at most one such early run per delay however
   * many BMCs boot (default 5,000 ms).
   */
  newEndpointDelayMs?: number;
}

/**
 * Runs the explorer every `intervalMs` plus jitter in [0, T/3). The replica that takes the work lock (held for
 * one interval) is the only one exploring during it and may run again within it when a run is requested
 * (a re-explore), which every replica hears through LISTEN/NOTIFY. New BMC endpoints announced by the
 * inventory (`BMC_ENDPOINTS_CHANGED_TOPIC`) also start a run, `newEndpointDelayMs` after the first of them.
 */
export class ExplorationLoop {
  private readonly channel: string;
  private readonly endpointsChannel: string;
  private readonly random: () => number;
  private periodic: NodeJS.Timeout | undefined;
  private poked: NodeJS.Timeout | undefined;
  private newEndpoints: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private leaseUntil = 0;
  private readonly unlisten: Array<() => Promise<void>> = [];

  constructor(private readonly options: ExplorationLoopOptions) {
    this.channel = channelName("site_explorer", options.database.schema);
    this.endpointsChannel = channelName(BMC_ENDPOINTS_CHANGED_TOPIC, options.database.schema);
    this.random = options.random ?? Math.random;
  }

  async start(): Promise<void> {
    const { database } = this.options;
    this.unlisten.push(await database.listen(this.channel, () => this.poke()));
    this.unlisten.push(await database.listen(this.endpointsChannel, () => this.newEndpointsAnnounced()));
    this.schedule(this.random() * Math.min(this.options.intervalMs / 3, 1_000));
  }

  /** Asks every replica for a run soon; the one holding the lock runs it. */
  async requestRun(): Promise<void> {
    this.poke();
    await this.options.database.notify(this.channel, "run");
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.periodic);
    clearTimeout(this.poked);
    clearTimeout(this.newEndpoints);
    await this.running;
    await Promise.all(this.unlisten.splice(0).map((stop) => stop().catch(() => undefined)));
  }

  private poke(): void {
    if (this.stopped || this.poked) return;
    this.poked = setTimeout(() => {
      this.poked = undefined;
      void this.tick();
    }, this.options.pokeDelayMs ?? POKE_DELAY_MS);
    this.poked.unref?.();
  }

  /** The first announcement schedules a run; the ones before it starts join it (a booting fleet, one run). */
  private newEndpointsAnnounced(): void {
    if (this.stopped || this.newEndpoints) return;
    this.newEndpoints = setTimeout(() => {
      this.newEndpoints = undefined;
      void this.tick();
    }, this.options.newEndpointDelayMs ?? NEW_ENDPOINT_DELAY_MS);
    this.newEndpoints.unref?.();
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.periodic = setTimeout(async () => {
      await this.tick();
      const { intervalMs } = this.options;
      this.schedule(intervalMs + this.random() * (intervalMs / 3));
    }, delayMs);
    this.periodic.unref?.();
  }

  /** One run if this replica holds (or takes) the lock; a request arriving meanwhile runs once more after. */
  private async tick(): Promise<void> {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.cycle().finally(() => {
      this.running = undefined;
    });
    await this.running;
    if (this.again && !this.stopped) {
      this.again = false;
      await this.tick();
    }
  }

  private async cycle(): Promise<void> {
    const { intervalMs, marginMs, database, owner, logger } = this.options;
    try {
      const now = Date.now();
      if (now >= this.leaseUntil - marginMs) {
        // `renew`: the holder takes its lock again before it ends (a run near the lock's end would have no time
        // to explore); without it, a backlog run there found the lock taken (by itself) and exploring stopped
        // until the lock expired and the next periodic tick came.
        const acquired = await tryAcquireWorkLock(database.db, {
          key: SITE_EXPLORER_WORK_LOCK,
          owner,
          now: new Date(now),
          holdMs: intervalMs,
          renew: true,
        });
        if (!acquired) return;
        this.leaseUntil = now + intervalMs;
      }
      const result = await this.options.run(this.leaseUntil - marginMs);
      // A booting site registers more BMCs than one run's budget: explore the rest soon, not next interval.
      if (result?.backlog) this.newEndpointsAnnounced();
    } catch (error) {
      logger.error({ err: (error as Error).message }, "site exploration run failed");
    }
  }
}
