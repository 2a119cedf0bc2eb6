/** What exploration priority looks at for one endpoint. */
export interface EndpointPriorityFacts {
  address: string;
  explorationRequested: boolean;
  lastExploredAt: Date | null;
  /** Whether the last exploration failed: it is tried again at the next run, however recent it was. */
  lastExplorationFailed?: boolean;
  /** When the inventory first saw the BMC. */
  firstSeenAt?: Date;
}

export interface ExplorationPlan {
  /** At most this many endpoints. */
  budget: number;
  now: Date;
  /**
   * An endpoint explored successfully less than this long ago (ms) is not explored again unless it was asked
   * for: a run that new endpoints started must not spend its budget on BMCs explored moments before.
   */
  freshForMs: number;
}

/**
 * The endpoints of this run, at most `budget` (NICo's order): re-explore requests first, then endpoints never
 * explored, first seen first (a host's BMC and its DPUs' boot together, so they pair in the same run), then the
 * oldest exploration that is no longer fresh (or failed); ties by address so the order is stable.
 */
export function endpointsToExplore<T extends EndpointPriorityFacts>(
  endpoints: readonly T[],
  plan: ExplorationPlan,
): T[] {
  const rank = (e: T) => (e.explorationRequested ? 0 : e.lastExploredAt === null ? 1 : 2);
  const time = (at: Date | null | undefined) => at?.getTime() ?? 0;
  const freshUntil = plan.now.getTime() - plan.freshForMs;
  const due = (e: T) =>
    rank(e) < 2 || e.lastExplorationFailed === true || time(e.lastExploredAt) <= freshUntil;
  return endpoints
    .filter(due)
    .sort(
      (a, b) =>
        rank(a) - rank(b) ||
        time(a.lastExploredAt) - time(b.lastExploredAt) ||
        time(a.firstSeenAt) - time(b.firstSeenAt) ||
        (a.address < b.address ? -1 : a.address > b.address ? 1 : 0),
    )
    .slice(0, Math.max(0, plan.budget));
}
