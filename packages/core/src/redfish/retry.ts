export interface RetryPolicy {
  /** Extra attempts after the first. */
  retries: number;
  /** First backoff step; each later step doubles. */
  baseDelayMs: number;
  /** Upper bound for any single wait. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 2, baseDelayMs: 250, maxDelayMs: 5_000 };

const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);
const RETRYABLE_STATUS = new Set([502, 503, 504]);

export function isIdempotent(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase());
}

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUS.has(status);
}

/** Exponential backoff with "equal jitter": half fixed, half random, so a fleet of callers spreads out. */
export function backoffDelay(
  policy: RetryPolicy,
  attempt: number,
  random: () => number = Math.random,
): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(step / 2 + random() * (step / 2));
}

/** Reads `Retry-After` (seconds or HTTP date) and bounds it by the policy. */
export function retryAfterMs(
  header: string | undefined,
  policy: RetryPolicy,
  now = Date.now(),
): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  if (!Number.isFinite(ms) || ms < 0) return undefined;
  return Math.min(ms, policy.maxDelayMs);
}
