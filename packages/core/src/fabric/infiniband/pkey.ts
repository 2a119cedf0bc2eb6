import { InvalidArgumentError } from "../../errors/index.js";

/**
 * An InfiniBand partition key, as a number. UFM speaks 15-bit pkeys (the membership bit is a separate
 * `membership` field), printed as lowercase `0x` hex; 0 is not a valid partition.
 */
export type Pkey = number;

/** The fabric's default partition, which every port is in from the start. The core never allocates it. */
export const DEFAULT_PKEY: Pkey = 0x7fff;
export const MAX_PKEY: Pkey = 0x7fff;

/** A range of pkeys the core may allocate and reconcile; `end` is exclusive (NICo's rule). */
export interface PkeyRange {
  start: Pkey;
  end: Pkey;
}

export function isPkey(value: unknown): value is Pkey {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= MAX_PKEY;
}

const HEX = /^0x[0-9a-f]+$/i;
const DECIMAL = /^\d+$/;

/** Reads a pkey from `0x`-hex (`"0x7fff"`), a decimal string or a number; throws naming the bad value. */
export function parsePkey(value: string | number): Pkey {
  let parsed = Number.NaN;
  if (typeof value === "number") parsed = value;
  else {
    const text = value.trim();
    if (HEX.test(text)) parsed = Number.parseInt(text.slice(2), 16);
    else if (DECIMAL.test(text)) parsed = Number.parseInt(text, 10);
  }
  if (!isPkey(parsed)) {
    throw new InvalidArgumentError(
      `pkey ${JSON.stringify(value)} is not valid: expected 0x1..0x7fff (hex with 0x, or decimal)`,
    );
  }
  return parsed;
}

/** `103` → `"0x67"`: the form UFM uses as a map key and in request bodies. */
export function formatPkey(pkey: Pkey): string {
  if (!isPkey(pkey)) throw new InvalidArgumentError(`pkey ${pkey} is not valid: expected 1..${MAX_PKEY}`);
  return `0x${pkey.toString(16)}`;
}

/** True when the pkey lies in one of the ranges (end exclusive): only those pkeys are the core's to change. */
export function pkeyInRanges(pkey: Pkey, ranges: readonly PkeyRange[]): boolean {
  return ranges.some((range) => pkey >= range.start && pkey < range.end);
}
