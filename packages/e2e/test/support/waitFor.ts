/**
 * Polls `check` every `everyMs` until it returns something other than undefined/false; fails after `timeoutMs`.
 * The timeout is a safety net for a stuck run, not an assertion about speed: keep it generous (CI machines are busy).
 */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false>,
  options: { what: string; timeoutMs?: number; everyMs?: number; describe?: () => Promise<string> },
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 360_000);
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) {
      const detail = options.describe ? `\n${await options.describe()}` : "";
      throw new Error(`timed out waiting for ${options.what}${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 250));
  }
}
