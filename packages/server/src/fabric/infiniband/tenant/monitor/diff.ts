import type { IbGuid } from "@racksmith/core/infiniband";
import { DEFAULT_PKEY, type Pkey, type PkeyRange, pkeyInRanges } from "@racksmith/core/infiniband";

export interface GuidPkey {
  guid: IbGuid;
  pkey: Pkey;
}

export interface HostPkeyDiff {
  /** Desired, not bound: to bind. */
  missing: GuidPkey[];
  /** Bound to one of our pkeys, not desired: to unbind. */
  unexpected: GuidPkey[];
  /** Bound to a pkey outside our ranges (not the default one): never touched, only counted. */
  unknown: GuidPkey[];
}

/**
 * Desired vs actual pkeys of a host's GUIDs. Only pkeys inside `ranges` are ours to unbind; the default
 * partition and foreign pkeys are left alone. A GUID with unknown actual pkeys (undefined) decides nothing.
 */
export function diffHostPkeys(
  guids: readonly IbGuid[],
  desired: ReadonlyMap<IbGuid, ReadonlySet<Pkey>>,
  actual: (guid: IbGuid) => readonly Pkey[] | undefined,
  ranges: readonly PkeyRange[],
): HostPkeyDiff {
  const diff: HostPkeyDiff = { missing: [], unexpected: [], unknown: [] };
  for (const guid of guids) {
    const bound = actual(guid);
    if (bound === undefined) continue;
    const want = desired.get(guid) ?? new Set<Pkey>();
    for (const pkey of [...want].sort((a, b) => a - b))
      if (!bound.includes(pkey)) diff.missing.push({ guid, pkey });
    for (const pkey of bound) {
      if (pkey === DEFAULT_PKEY || want.has(pkey)) continue;
      if (pkeyInRanges(pkey, ranges)) diff.unexpected.push({ guid, pkey });
      else diff.unknown.push({ guid, pkey });
    }
  }
  return diff;
}

/** `{pkey → guids}` so each pkey takes one bind or unbind call. */
export function groupByPkey(pairs: readonly GuidPkey[]): Map<Pkey, IbGuid[]> {
  const grouped = new Map<Pkey, IbGuid[]>();
  for (const { guid, pkey } of pairs) grouped.set(pkey, [...(grouped.get(pkey) ?? []), guid]);
  return grouped;
}
