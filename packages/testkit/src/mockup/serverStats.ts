/** Request counters of one server; `inFlight` spans the whole handler, injected latency included. */
export interface MockupServerStats {
  readonly total: number;
  readonly byMethod: Readonly<Record<string, number>>;
  readonly inFlight: number;
  readonly maxInFlight: number;
}

export class RequestStatsCounter {
  private total = 0;
  private byMethod: Record<string, number> = {};
  private inFlight = 0;
  private maxInFlight = 0;

  /** Counts a request as started; call the returned function when it is answered. */
  begin(method: string): () => void {
    this.total++;
    const verb = method.toUpperCase();
    this.byMethod[verb] = (this.byMethod[verb] ?? 0) + 1;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight--;
    };
  }

  snapshot(): MockupServerStats {
    return {
      total: this.total,
      byMethod: { ...this.byMethod },
      inFlight: this.inFlight,
      maxInFlight: this.maxInFlight,
    };
  }

  /** Zeroes the counters; requests still running keep counting as in flight. */
  reset(): void {
    this.total = 0;
    this.byMethod = {};
    this.maxInFlight = this.inFlight;
  }
}
