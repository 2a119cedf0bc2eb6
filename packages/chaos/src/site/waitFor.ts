/** How a poll goes: what it waits for, its safety net, and what to say when the net catches it. */
export interface PollOptions {
  /** Named in the timeout error: "25 Ready hosts". */
  what: string;
  /**
   * The safety net for a stuck run, never an assertion about speed: keep it generous (a busy machine is slow).
   */
  timeoutMs: number;
  everyMs?: number;
  /** Appended to the timeout error: what is still missing. */
  describe?: () => Promise<string>;
}

/**
 * Polls `check` every `everyMs` until it returns something other than undefined/false, or `timeoutMs` passes
 * (then: undefined). A check that throws (the service restarting, a dropped connection) counts as "not yet".
 */
export async function pollUntil<T>(
  check: () => Promise<T | undefined | false>,
  options: Pick<PollOptions, "timeoutMs" | "everyMs">,
): Promise<T | undefined> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) return undefined;
    await sleep(options.everyMs ?? 250);
  }
}

/** {@link pollUntil}, throwing when the safety net catches the run (with `describe`'s account of it). */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false>,
  options: PollOptions,
): Promise<T> {
  let lastError: unknown;
  const value = await pollUntil(
    () =>
      check().catch((error: unknown) => {
        lastError = error;
        return undefined;
      }),
    options,
  );
  if (value !== undefined) return value;
  const detail = options.describe ? await options.describe().catch((error: unknown) => String(error)) : "";
  const last = lastError ? ` (last error: ${(lastError as Error).message ?? String(lastError)})` : "";
  throw new Error(
    `timed out after ${Math.round(options.timeoutMs / 1000)} s waiting for ${options.what}${last}${detail ? `\n${detail}` : ""}`,
  );
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A random moment in [minMs, maxMs): when a kill comes, not how long anything takes. */
export function randomDelay(minMs: number, maxMs: number, random: () => number = Math.random): Promise<void> {
  return sleep(minMs + random() * (maxMs - minMs));
}
