import type { IbGuid, Pkey } from "@racksmith/core/infiniband";
import { formatPkey, type PkeyRange } from "@racksmith/core/infiniband";
import { diffHostPkeys } from "./diff.js";
import type { HostIbObservation } from "./observation.js";

const hex = (guid: IbGuid) => `0x${guid}`;

/** Why the host's observed GUIDs do not match the desired pkeys yet (empty: synced). */
export function syncProblemsFrom(
  observation: HostIbObservation | undefined,
  guids: readonly IbGuid[],
  desired: ReadonlyMap<IbGuid, ReadonlySet<Pkey>>,
  ranges: readonly PkeyRange[],
): string[] {
  if (guids.length === 0) return [];
  if (!observation) {
    const wanted = [...desired.keys()];
    return wanted.length
      ? [`GUIDs ${wanted.map(hex).join(", ")} not yet observed by the IB fabric monitor`]
      : [];
  }
  const seen = new Map(observation.interfaces.map((i) => [i.guid, i.pkeys]));
  const problems: string[] = [];
  for (const guid of desired.keys())
    if (!seen.has(guid)) problems.push(`GUID ${hex(guid)} not yet observed on the fabric`);
  const diff = diffHostPkeys(guids, desired, (guid) => seen.get(guid), ranges);
  for (const { guid, pkey } of diff.missing)
    problems.push(`GUID ${hex(guid)} not yet in pkey ${formatPkey(pkey)}`);
  for (const { guid, pkey } of diff.unexpected)
    problems.push(`GUID ${hex(guid)} still in pkey ${formatPkey(pkey)}`);
  return problems;
}

/** Which of the host's GUIDs the observation still shows in one of our pkeys (release must wait for them). */
export function boundInRanges(
  observation: HostIbObservation | undefined,
  guids: readonly IbGuid[],
  ranges: readonly PkeyRange[],
): string[] {
  if (!observation) return [];
  const seen = new Map(observation.interfaces.map((i) => [i.guid, i.pkeys]));
  const diff = diffHostPkeys(guids, new Map(), (guid) => seen.get(guid), ranges);
  return diff.unexpected.map(({ guid, pkey }) => `GUID ${hex(guid)} still in pkey ${formatPkey(pkey)}`);
}
