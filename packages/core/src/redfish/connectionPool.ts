import { createHash } from "node:crypto";
import { Pool } from "undici";
import { Semaphore } from "./semaphore.js";

export interface TlsOptions {
  /** PEM bundle the BMC's certificate must chain to. */
  ca?: string | Buffer;
  /** Accept any certificate (self-signed BMCs). Must be asked for explicitly. */
  insecure?: boolean;
  /** Name to verify the certificate against when the address is an IP. */
  servername?: string;
}

export interface EndpointSlot {
  readonly dispatcher: Pool;
  readonly limiter: Semaphore;
  /**
   * Gives this client's share back. With `linger: false` the BMC's connections close at once when no other
   * client holds them, instead of `idleCloseMs` later.
   */
  release(options?: { linger?: boolean }): void;
}

interface LimiterEntry {
  limiter: Semaphore;
  refs: number;
}

interface DispatcherEntry {
  dispatcher: Pool;
  refs: number;
  /** Closes the connections once no client used them for `idleCloseMs`. */
  idle?: NodeJS.Timeout;
}

/** How long a BMC's connections outlive its last client (a lifecycle step every few seconds reuses them). */
const DEFAULT_IDLE_CLOSE_MS = 15_000;

/**
 * Keep-alive connections and the per-BMC concurrency cap, shared by every client of the same BMC in a
 * process: the explorer, the monitor and a lifecycle handler talking to one iDRAC together never exceed its
 * cap. The cap is per origin (scheme + host + port) whatever TLS options each caller uses.
 */
export class BmcConnectionPool {
  private readonly limiters = new Map<string, LimiterEntry>();
  private readonly dispatchers = new Map<string, DispatcherEntry>();
  private readonly idleCloseMs: number;

  /**
   * `idleCloseMs`: connections stay open this long after the last client of a BMC closed, so short-lived
   * clients (one per lifecycle step) do not connect (and handshake TLS) anew each time; 0 closes at once.
   */
  constructor(options: { idleCloseMs?: number } = {}) {
    this.idleCloseMs = options.idleCloseMs ?? DEFAULT_IDLE_CLOSE_MS;
  }

  acquire(
    origin: string,
    options: { maxConcurrency: number; connectTimeoutMs: number; tls: TlsOptions; connectOrigin?: string },
  ): EndpointSlot {
    let limiterEntry = this.limiters.get(origin);
    if (!limiterEntry) {
      limiterEntry = { limiter: new Semaphore(options.maxConcurrency), refs: 0 };
      this.limiters.set(origin, limiterEntry);
    }
    limiterEntry.refs++;

    // Connections go to `connectOrigin` (a BMC proxy) when given; the cap stays per BMC.
    const dialed = options.connectOrigin ?? origin;
    // Each BMC behind a proxy gets its own connections to it, so one slow BMC cannot starve the others.
    const key = `${origin}|${dialed}|${tlsKey(options.tls)}|${options.connectTimeoutMs}`;
    let dispatcherEntry = this.dispatchers.get(key);
    if (!dispatcherEntry) {
      dispatcherEntry = {
        dispatcher: new Pool(dialed, {
          connections: options.maxConcurrency,
          keepAliveTimeout: 30_000,
          connect: {
            timeout: options.connectTimeoutMs,
            rejectUnauthorized: !options.tls.insecure,
            ...(options.tls.ca ? { ca: options.tls.ca } : {}),
            ...(options.tls.servername ? { servername: options.tls.servername } : {}),
          },
        }),
        refs: 0,
      };
      this.dispatchers.set(key, dispatcherEntry);
    }
    dispatcherEntry.refs++;
    clearTimeout(dispatcherEntry.idle);
    dispatcherEntry.idle = undefined;

    const limiterRef = limiterEntry;
    const dispatcherRef = dispatcherEntry;
    let released = false;
    return {
      dispatcher: dispatcherRef.dispatcher,
      limiter: limiterRef.limiter,
      release: (releaseOptions) => {
        if (released) return;
        released = true;
        if (--limiterRef.refs === 0) this.limiters.delete(origin);
        if (--dispatcherRef.refs === 0)
          this.closeWhenIdle(key, dispatcherRef, releaseOptions?.linger ?? true);
      },
    };
  }

  private closeWhenIdle(key: string, entry: DispatcherEntry, linger: boolean): void {
    const close = () => {
      if (entry.refs > 0 || this.dispatchers.get(key) !== entry) return;
      this.dispatchers.delete(key);
      const { pending, running } = entry.dispatcher.stats;
      // Nothing in flight: closing gracefully would only make (and format) an error with a stack per
      // connection, a tenth of a monitor poll's CPU when every poll closes its BMC's connections.
      const closing =
        pending === 0 && running === 0
          ? entry.dispatcher.destroy(connectionsClosed())
          : entry.dispatcher.close();
      void closing.catch(() => undefined);
    };
    if (this.idleCloseMs <= 0 || !linger) {
      close();
      return;
    }
    entry.idle = setTimeout(close, this.idleCloseMs);
    entry.idle.unref?.();
  }

  /** Number of BMC origins with live clients (for metrics and tests). */
  get size(): number {
    return this.limiters.size;
  }

  async closeAll(): Promise<void> {
    const all = [...this.dispatchers.values()];
    for (const entry of all) clearTimeout(entry.idle);
    this.dispatchers.clear();
    this.limiters.clear();
    await Promise.all(all.map((entry) => entry.dispatcher.close().catch(() => undefined)));
  }
}

/** The reason idle connections are closed with: nothing waits on it, so it carries no stack. */
function connectionsClosed(): Error {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new Error("BMC connections closed: no client uses them");
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function tlsKey(tls: TlsOptions): string {
  const ca = tls.ca ? createHash("sha256").update(tls.ca).digest("hex").slice(0, 16) : "-";
  return `${tls.insecure ? "insecure" : "verify"}:${ca}:${tls.servername ?? "-"}`;
}

/** The pool every RedfishClient uses unless given another. */
export const sharedBmcConnectionPool = new BmcConnectionPool();
