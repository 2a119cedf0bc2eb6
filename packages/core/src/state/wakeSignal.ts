/**
 * A coalescing wake-up for a worker loop: any number of `fire()`s between two waits wake it once, and a fire
 * that happens while the loop is busy is not lost — the next `wait()` consumes it and returns at once.
 */
export class WakeSignal {
  private fired = false;
  private wake: (() => void) | undefined;

  fire(): void {
    this.fired = true;
    this.wake?.();
  }

  /** Forgets a pending fire (the caller is about to look for work anyway). */
  reset(): void {
    this.fired = false;
  }

  /** Resolves on the next fire (at once if one is pending) or after `timeoutMs`; either way consumes it. */
  wait(timeoutMs: number): Promise<void> {
    if (this.fired) {
      // Consumed here too: a pending fire left set would make every later wait return at once (a spin).
      this.fired = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        this.fired = false;
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.wake = done;
    });
  }
}

/** `ms` stretched by up to `fraction` at random, so replicas do not act in lockstep. */
export function withJitter(ms: number, fraction: number): number {
  return ms + Math.floor(Math.random() * ms * fraction);
}
