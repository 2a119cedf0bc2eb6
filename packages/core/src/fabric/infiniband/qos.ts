import { InvalidArgumentError } from "../../errors/index.js";

/** MTU limits UFM accepts: 2 (2048 bytes) and 4 (4096 bytes). */
export const INFINIBAND_MTUS = [2, 4] as const;

/** Rate limits in Gb/s UFM accepts; 2.5 is SDR (NICo stores it as 2). */
export const INFINIBAND_RATE_LIMITS = [
  2.5, 5, 10, 14, 20, 25, 30, 40, 56, 60, 80, 100, 112, 120, 168, 200, 300,
] as const;

export const INFINIBAND_MAX_SERVICE_LEVEL = 15;

/**
 * A partition's quality of service. Plain numbers, because a partition read from the fabric may carry values
 * someone set by hand; `checkInfiniBandQos` enforces the allowed values before anything is written.
 */
export interface InfiniBandQos {
  mtu: number;
  /** Gb/s. */
  rateLimit: number;
  serviceLevel: number;
}

/** NICo's defaults (`ib_config.mtu`, `rate_limit`, `service_level`). */
export const DEFAULT_INFINIBAND_QOS: Readonly<InfiniBandQos> = Object.freeze({
  mtu: 4,
  rateLimit: 200,
  serviceLevel: 0,
});

/** Throws an `invalid_argument` error naming every value the fabric would refuse. */
export function checkInfiniBandQos(qos: InfiniBandQos): InfiniBandQos {
  const problems: string[] = [];
  if (!(INFINIBAND_MTUS as readonly number[]).includes(qos.mtu))
    problems.push(`mtu ${qos.mtu} must be one of ${INFINIBAND_MTUS.join(", ")}`);
  if (!(INFINIBAND_RATE_LIMITS as readonly number[]).includes(qos.rateLimit))
    problems.push(`rateLimit ${qos.rateLimit} must be one of ${INFINIBAND_RATE_LIMITS.join(", ")}`);
  if (
    !Number.isInteger(qos.serviceLevel) ||
    qos.serviceLevel < 0 ||
    qos.serviceLevel > INFINIBAND_MAX_SERVICE_LEVEL
  )
    problems.push(`serviceLevel ${qos.serviceLevel} must be an integer 0..${INFINIBAND_MAX_SERVICE_LEVEL}`);
  if (problems.length) throw new InvalidArgumentError(`InfiniBand QoS: ${problems.join("; ")}`);
  return qos;
}

export function sameInfiniBandQos(a: InfiniBandQos, b: InfiniBandQos): boolean {
  return a.mtu === b.mtu && a.rateLimit === b.rateLimit && a.serviceLevel === b.serviceLevel;
}
