/** What exploration priority looks at for one endpoint. */
export interface EndpointPriorityFacts {
  address: string;
  explorationRequested: boolean;
  lastExploredAt: Date | null;
}

/**
 * The endpoints of this run, at most `budget` (NICo's order): re-explore requests first, then endpoints never
 * explored, then the oldest exploration; ties by address so the order is stable.
 */
export function endpointsToExplore<T extends EndpointPriorityFacts>(
  endpoints: readonly T[],
  budget: number,
): T[] {
  const rank = (e: T) => (e.explorationRequested ? 0 : e.lastExploredAt === null ? 1 : 2);
  return [...endpoints]
    .sort(
      (a, b) =>
        rank(a) - rank(b) ||
        (a.lastExploredAt?.getTime() ?? 0) - (b.lastExploredAt?.getTime() ?? 0) ||
        (a.address < b.address ? -1 : a.address > b.address ? 1 : 0),
    )
    .slice(0, Math.max(0, budget));
}
