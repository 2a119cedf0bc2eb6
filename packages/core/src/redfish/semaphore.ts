/** A counting semaphore: at most `capacity` holders at once, waiters served in arrival order. */
export class Semaphore {
  private held = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`capacity must be >= 1, got ${capacity}`);
  }

  get inUse(): number {
    return this.held;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /**
   * Waits for a slot and returns its release. When `signal` fires first, the waiter leaves the queue and the
   * promise rejects with the signal's reason (no slot is taken).
   */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.held < this.capacity) {
      this.held++;
    } else {
      // The releasing holder hands its slot over directly, so `held` never dips and no one can jump the queue.
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const index = this.waiters.indexOf(waiter);
          if (index >= 0) this.waiters.splice(index, 1);
          reject(signal?.reason);
        };
        const waiter = () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        };
        this.waiters.push(waiter);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) next();
      else this.held--;
    };
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await task();
    } finally {
      release();
    }
  }
}
