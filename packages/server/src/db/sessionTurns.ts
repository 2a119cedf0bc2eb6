type Waiter = { kind: "statement"; send: () => void } | { kind: "transaction"; grant: () => void };

/**
 * The turns on one database session whose statements run in the order they are sent (PGlite's thread). A
 * transaction has the session to itself from its first statement to its last; a statement outside any
 * transaction is sent at once, pipelined behind what is already queued, and never waits for an answer to
 * someone else's statement. Waiters are served first come, first served: statements sent together when a
 * transaction ends, up to the next transaction in line.
 */
export class SessionTurns {
  private held = false;
  private readonly waiters: Waiter[] = [];

  /** Whether a transaction has the session now. */
  get busy(): boolean {
    return this.held;
  }

  /**
   * Sends one statement outside any transaction: now when no transaction has the session, else at the end of
   * the transactions queued before it. `send` must hand the statement to the session synchronously.
   */
  send<T>(send: () => Promise<T>): Promise<T> {
    if (!this.held && this.waiters.length === 0) return send();
    return new Promise<T>((resolve, reject) => {
      const sendNow = () => {
        try {
          send().then(resolve, reject);
        } catch (error) {
          reject(error);
        }
      };
      this.waiters.push({ kind: "statement", send: sendNow });
    });
  }

  /** Waits for the session to itself; resolves to its release (idempotent). */
  async transaction(): Promise<() => void> {
    if (this.held || this.waiters.length > 0) {
      await new Promise<void>((grant) => this.waiters.push({ kind: "transaction", grant }));
    } else {
      this.held = true;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.handOver();
    };
  }

  /** Sends the queued statements up to the next waiting transaction, and gives that one the session. */
  private handOver(): void {
    for (;;) {
      const next = this.waiters.shift();
      if (!next) {
        this.held = false;
        return;
      }
      if (next.kind === "transaction") {
        next.grant();
        return;
      }
      next.send();
    }
  }
}
