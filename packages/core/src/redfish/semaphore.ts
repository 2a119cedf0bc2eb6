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

  async acquire(): Promise<() => void> {
    if (this.held < this.capacity) {
      this.held++;
    } else {
      // The releasing holder hands its slot over directly, so `held` never dips and no one can jump the queue.
      await new Promise<void>((resolve) => this.waiters.push(resolve));
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
