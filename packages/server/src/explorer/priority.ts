/** What exploration priority looks at for one endpoint. */
export interface EndpointPriorityFacts {
  address: string;
  explorationRequested: boolean;
  lastExploredAt: Date | null;
  /** When the inventory first saw the BMC. */
  firstSeenAt?: Date;
}

/**
 * The endpoints of this run, at most `budget` (NICo's order): re-explore requests first, then endpoints never
 * explored, first seen first (a host's BMC and its DPUs' boot together, so they pair in the same run), then the
 * oldest exploration; ties by address so the order is stable.
 */
export function endpointsToExplore<T extends EndpointPriorityFacts>(
  endpoints: readonly T[],
  budget: number,
): T[] {
  const rank = (e: T) => (e.explorationRequested ? 0 : e.lastExploredAt === null ? 1 : 2);
  const time = (at: Date | null | undefined) => at?.getTime() ?? 0;
  return [...endpoints]
    .sort(
      (a, b) =>
        rank(a) - rank(b) ||
        time(a.lastExploredAt) - time(b.lastExploredAt) ||
        time(a.firstSeenAt) - time(b.firstSeenAt) ||
        (a.address < b.address ? -1 : a.address > b.address ? 1 : 0),
    )
    .slice(0, Math.max(0, budget));
}
