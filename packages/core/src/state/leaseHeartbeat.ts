import type { Logger } from "../logging/index.js";
import type { ResolvedEngineConfig } from "./config.js";
import type { EngineDatabase } from "./database.js";
import { renewLeases } from "./queue.js";
import type { Claim } from "./records.js";
import { describeError } from "./runtime.js";

/**
 * A claim is renewed for at most this many handler timeouts: a handler that ignores its abort still holds
 * its object (no second handler starts beside it), but not for ever.
 */
const RENEWALS_PER_TIMEOUT = 3;

export interface LeaseHeartbeatDeps {
  database: EngineDatabase;
  config: ResolvedEngineConfig;
  logger: Logger;
  clock: () => Date;
  /** The claims of every handler this engine runs now. */
  runningClaims: () => Claim[];
}

/**
 * Keeps this engine's claims alive while their handlers run: every `heartbeatMs` it extends their leases by
 * `leaseMs`. Leases stay short, so the claims of a replica that died (no more heartbeats) are taken over
 * within `leaseMs`, while a live handler keeps its object however long it legitimately runs.
 */
export class LeaseHeartbeat {
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly deps: LeaseHeartbeatDeps) {}

  start(): void {
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.beating;
  }

  /** One renewal now (tests, and the timer). */
  async beat(): Promise<void> {
    const { config, clock, logger } = this.deps;
    const now = clock();
    const maxAgeMs = RENEWALS_PER_TIMEOUT * config.handlerTimeoutMs;
    const claims = this.deps
      .runningClaims()
      .filter((claim) => now.getTime() - claim.claimedAt.getTime() < maxAgeMs);
    if (claims.length === 0) return;
    try {
      const renewed = await renewLeases(this.deps.database.db, claims, { now, leaseMs: config.leaseMs });
      const lost = claims.filter((claim) => !renewed.has(`${claim.objectType}/${claim.objectId}`));
      // A run that just ended has no row any more; one still running lost its claim (lease expired meanwhile).
      if (lost.length > 0) {
        logger.debug({ claims: lost.map((c) => `${c.objectType}/${c.objectId}`) }, "claims not renewed");
      }
    } catch (error) {
      logger.warn(
        { claims: claims.length, error: describeError(error) },
        "could not renew claim leases; they expire unless the next heartbeat succeeds",
      );
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.beating = this.beat().finally(() => this.schedule());
    }, this.deps.config.heartbeatMs);
    this.timer.unref();
  }
}
