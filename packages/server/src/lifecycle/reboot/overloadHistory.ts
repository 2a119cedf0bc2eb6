/** What a load sample measured: how late the sampling timer fired, how long a trivial query took. */
export interface LoadSample {
  eventLoopDelayMs: number;
  databaseLatencyMs: number;
}

/** Above either figure the service counts as overloaded; 0 turns that check off. */
export interface OverloadThresholds {
  databaseLatencyMs: number;
  eventLoopDelayMs: number;
}

export interface LoadState {
  /** Why the service is overloaded, or null. */
  overloaded: string | null;
  /** Consecutive samples below the thresholds while overloaded. */
  calm: number;
}

/** Samples below the thresholds it takes to leave the overloaded state (no flapping on one quick answer). */
export const CALM_SAMPLES_TO_RECOVER = 3;

/** The load state after one more sample: overloaded at once, recovered only after a few calm samples. */
export function nextLoadState(state: LoadState, sample: LoadSample, limits: OverloadThresholds): LoadState {
  const reasons: string[] = [];
  if (limits.databaseLatencyMs > 0 && sample.databaseLatencyMs > limits.databaseLatencyMs) {
    reasons.push(
      `database round trip ${Math.round(sample.databaseLatencyMs)} ms > ${limits.databaseLatencyMs} ms`,
    );
  }
  if (limits.eventLoopDelayMs > 0 && sample.eventLoopDelayMs > limits.eventLoopDelayMs) {
    reasons.push(
      `event loop delay ${Math.round(sample.eventLoopDelayMs)} ms > ${limits.eventLoopDelayMs} ms`,
    );
  }
  if (reasons.length > 0) return { overloaded: reasons.join(", "), calm: 0 };
  if (state.overloaded === null) return state;
  const calm = state.calm + 1;
  return calm >= CALM_SAMPLES_TO_RECOVER
    ? { overloaded: null, calm: 0 }
    : { overloaded: state.overloaded, calm };
}

interface Interval {
  start: number;
  end: number | null;
}

/** Intervals kept: enough for the longest retry interval a site plausibly configures. */
const MAX_INTERVALS = 1_000;

/** When the service was overloaded, so a timer can stand still for exactly that time. */
export class OverloadHistory {
  private readonly intervals: Interval[] = [];
  private why: string | null = null;

  /** Why the service is overloaded now, or null. */
  get current(): string | null {
    return this.why;
  }

  /** Records the state from a sample taken at `at` (ms). */
  set(overloaded: string | null, at: number): void {
    const open = this.intervals.at(-1);
    if (overloaded !== null && (!open || open.end !== null)) {
      this.intervals.push({ start: at, end: null });
      if (this.intervals.length > MAX_INTERVALS) this.intervals.shift();
    } else if (overloaded === null && open && open.end === null) {
      open.end = at;
    }
    this.why = overloaded;
  }

  /** Overloaded time between two instants (an open interval counts up to `to`). */
  pausedMs(from: Date, to: Date): number {
    const [a, b] = [from.getTime(), to.getTime()];
    let total = 0;
    for (const interval of this.intervals) {
      const start = Math.max(interval.start, a);
      const end = Math.min(interval.end ?? b, b);
      if (end > start) total += end - start;
    }
    return total;
  }
}
