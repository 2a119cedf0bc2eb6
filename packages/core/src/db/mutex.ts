/** A FIFO async lock: PGlite is one connection, so every user of it takes turns through one of these. */
export class Mutex {
  private locked = false;
  private readonly waiters: Array<() => void> = [];

  async acquire(): Promise<() => void> {
    if (this.locked) await new Promise<void>((resolve) => this.waiters.push(resolve));
    else this.locked = true;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // Hand the lock straight to the next waiter so nobody can cut in between.
      const next = this.waiters.shift();
      if (next) next();
      else this.locked = false;
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
