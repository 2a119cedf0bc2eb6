/**
 * Promises on a fake's own events: `until(condition)` resolves once the condition holds, checked now and each
 * time the fake calls `changed()`. Tests wait on what the fake saw, never on a clock.
 */
export class Conditions {
  private readonly waiters = new Set<() => void>();

  until(condition: () => boolean): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!condition()) return;
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }

  changed(): void {
    for (const check of [...this.waiters]) check();
  }
}
