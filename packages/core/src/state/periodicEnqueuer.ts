import { enqueueAllObjects } from "./queue.js";
import { describeError, type MachineRuntime } from "./runtime.js";
import { withJitter } from "./wakeSignal.js";
import { tryAcquireWorkLock } from "./workLock.js";

const JITTER = 1 / 3;

/**
 * Re-runs every object of a type each iteration interval (+ jitter in [0, T/3)), so an object nobody
 * enqueued (after an error, a wait, a lost NOTIFY) is still looked at. Every replica ticks; the work lock,
 * held for one interval, lets only one of them enqueue per interval.
 */
export class PeriodicEnqueuer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly rt: MachineRuntime) {}

  /** Runs the first iteration (so start-up is deterministic), then keeps ticking in the background. */
  async start(): Promise<void> {
    // The first batch is due at once: what changed while no engine ran is looked at now.
    this.running = this.tick(0);
    await this.running;
    this.schedule(withJitter(this.rt.config.iterationIntervalMs, JITTER));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick(this.rt.config.iterationSpreadMs).finally(() => {
        this.schedule(withJitter(this.rt.config.iterationIntervalMs, JITTER));
      });
    }, delayMs);
  }

  private async tick(spreadMs: number): Promise<void> {
    const { machine, database, config } = this.rt;
    const now = this.rt.clock();
    try {
      const acquired = await tryAcquireWorkLock(database.db, {
        key: `state_periodic_enqueue:${machine.objectType}`,
        owner: this.rt.owner,
        now,
        holdMs: config.iterationIntervalMs,
      });
      if (!acquired) return;
      const queued = await enqueueAllObjects(database.db, machine.objectType, now, spreadMs);
      if (queued > 0) await database.notify(this.rt.channel, machine.objectType);
      this.rt.logger.debug({ objectType: machine.objectType, queued }, "periodic enqueue");
    } catch (error) {
      this.rt.logger.warn(
        { objectType: machine.objectType, error: describeError(error) },
        "periodic enqueue failed",
      );
    }
  }
}
