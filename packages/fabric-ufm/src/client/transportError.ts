import {
  type InfiniBandFabricError,
  InfiniBandFabricTimeoutError,
  InfiniBandFabricUnavailableError,
} from "@racksmith/core/infiniband";

const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/**
 * Turns what undici throws into the contract's errors: a timeout (ours or the caller's deadline) is
 * `fabric_timeout`, anything else on the way (refused, reset, DNS, TLS) is `fabric_unavailable`.
 */
export function transportError(
  fabric: string,
  error: unknown,
  what: string,
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
  scrub: (text: string) => string,
): InfiniBandFabricError {
  const code = errorCode(error);
  if (callerSignal?.aborted) {
    return new InfiniBandFabricTimeoutError(fabric, `${what} aborted by the caller`, {
      cause: error,
      details: { aborted: true },
    });
  }
  const name = (error as Error | undefined)?.name;
  if ((code && TIMEOUT_CODES.has(code)) || name === "TimeoutError" || name === "AbortError") {
    return new InfiniBandFabricTimeoutError(fabric, `${what} timed out after ${timeoutMs} ms`, {
      cause: error,
      details: { timeoutMs },
    });
  }
  const reason = scrub((error as Error | undefined)?.message ?? String(error));
  return new InfiniBandFabricUnavailableError(fabric, `${what} failed: ${code ? `${code}: ` : ""}${reason}`, {
    cause: error,
    details: code ? { errno: code } : {},
  });
}

/** undici wraps the socket error; the useful code may sit a few `cause`s deep. */
function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && code !== "UND_ERR_SOCKET") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return typeof (error as { code?: unknown })?.code === "string"
    ? (error as { code: string }).code
    : undefined;
}
