import { InvalidArgumentError } from "@racksmith/core";
import {
  DEFAULT_PKEY,
  formatPkey,
  type Pkey,
  type PkeyRange,
  pkeyInRanges,
} from "@racksmith/core/infiniband";
import { PkeyPoolExhaustedError, PkeyTakenError } from "../errors.js";

/**
 * Picks a pkey from the ranges (end exclusive) that is not in `used`: the requested one when given (it must
 * lie in a range and be free), else the lowest free one. Never the default partition.
 */
export function allocatePkey(ranges: readonly PkeyRange[], used: ReadonlySet<Pkey>, requested?: Pkey): Pkey {
  if (requested !== undefined) {
    if (requested === DEFAULT_PKEY || !pkeyInRanges(requested, ranges)) {
      throw new InvalidArgumentError(
        `pkey: ${formatPkey(requested)} is outside the configured ranges (${describeRanges(ranges)})`,
        { details: { field: "pkey" } },
      );
    }
    if (used.has(requested)) throw new PkeyTakenError(requested);
    return requested;
  }
  for (const range of [...ranges].sort((a, b) => a.start - b.start)) {
    for (let pkey = range.start; pkey < range.end; pkey++) {
      if (pkey !== DEFAULT_PKEY && !used.has(pkey)) return pkey;
    }
  }
  throw new PkeyPoolExhaustedError(describeRanges(ranges));
}

export function describeRanges(ranges: readonly PkeyRange[]): string {
  if (ranges.length === 0) return "none configured";
  // Not formatPkey: a range end may be 0x8000 (exclusive), which is no pkey.
  const hex = (n: number) => `0x${n.toString(16)}`;
  return ranges.map((range) => `${hex(range.start)}..${hex(range.end)}`).join(", ");
}
