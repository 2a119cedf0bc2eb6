import {
  type LoadState,
  nextLoadState,
  type OverloadHistory,
  type OverloadThresholds,
} from "./overloadHistory.js";

export interface ServiceLoadMonitorOptions {
  /** A trivial query (`select 1`): its round trip is how long the database makes everyone queue. */
  probe: () => Promise<void>;
  thresholds: OverloadThresholds;
  history: OverloadHistory;
  /** Between samples (ms). Default 1,000. */
  intervalMs?: number;
  now?: () => number;
  /** Each sample as measured (metrics). */
  onSample?: (sample: { eventLoopDelayMs: number; databaseLatencyMs: number }) => void;
}

/**
 * Samples the service's load every second: how late its own timer fires (the event loop's delay) and how
 * long `select 1` takes (the database's queue). The verdict goes into the overload history the reboot
 * timers read. A probe slower than the threshold counts as overloaded as soon as the threshold passes.
 */
export class ServiceLoadMonitor {
  private timer: NodeJS.Timeout | undefined;
  private state: LoadState = { overloaded: null, calm: 0 };
  private stopped = true;
  private readonly now: () => number;
  private readonly intervalMs: number;

  constructor(private readonly options: ServiceLoadMonitorOptions) {
    this.now = options.now ?? Date.now;
    this.intervalMs = options.intervalMs ?? 1_000;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.stopped) return;
    const due = this.now() + this.intervalMs;
    this.timer = setTimeout(() => void this.sample(Math.max(0, this.now() - due)), this.intervalMs);
    this.timer.unref();
  }

  private async sample(eventLoopDelayMs: number): Promise<void> {
    const { thresholds, history } = this.options;
    const started = this.now();
    const slow =
      thresholds.databaseLatencyMs > 0
        ? setTimeout(() => {
            const late = { eventLoopDelayMs, databaseLatencyMs: this.now() - started };
            history.set(nextLoadState(this.state, late, thresholds).overloaded, this.now());
          }, thresholds.databaseLatencyMs + 1)
        : undefined;
    slow?.unref();
    // A failing probe is an unavailable database: that is the readiness check's to report, not an overload.
    await this.options.probe().catch(() => undefined);
    clearTimeout(slow);
    const sample = { eventLoopDelayMs, databaseLatencyMs: this.now() - started };
    this.options.onSample?.(sample);
    this.state = nextLoadState(this.state, sample, thresholds);
    history.set(this.state.overloaded, this.now());
    this.schedule();
  }
}
