import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";

export interface WaitForOptions {
  /** What is awaited, for the error when the deadline passes. */
  what?: string;
  /**
   * How long to wait, in real time, before failing (default 10 s). `Number.POSITIVE_INFINITY`: no deadline of
   * its own, vitest's per-test timeout is the only bound.
   */
  timeoutMs?: number;
  /**
   * What to wait between checks: this many milliseconds of real time (default 10), or `"immediate"`, one turn
   * of the event loop (a check as soon as pending I/O has been handled).
   */
  intervalMs?: number | "immediate";
}

/**
 * Polls `check` until it returns a value other than undefined/false, and returns that value. It waits on
 * `node:timers/promises`, which vitest's fake timers leave alone: it works the same while a test moves a fake
 * clock, and never moves that clock itself.
 */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  options: WaitForOptions = {},
): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 10 } = options;
  let expired = false;
  const deadline = new AbortController();
  if (Number.isFinite(timeoutMs)) {
    sleep(timeoutMs, undefined, { ref: false, signal: deadline.signal }).then(
      () => {
        expired = true;
      },
      () => undefined,
    );
  }
  try {
    for (;;) {
      const value = await check();
      if (value !== undefined && value !== false) return value;
      if (expired) throw new Error(`timed out waiting for ${options.what ?? "a condition"}`);
      await (intervalMs === "immediate" ? nextTurn() : sleep(intervalMs));
    }
  } finally {
    deadline.abort();
  }
}

/** A promise the test resolves by hand, to hold a handler (or a fake) at a known point. */
export function latch<T = void>(): { promise: Promise<T>; open(value: T): void } {
  let open: (value: T) => void = () => {};
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
