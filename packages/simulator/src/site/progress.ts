import type { ObjectStateView } from "@racksmith/core/engine";

/** Hosts per top-level state (`ready`, `hostInit`, …), in the lifecycle's order of first appearance. */
export function countByState(hosts: readonly ObjectStateView[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const host of hosts) counts[host.state.state] = (counts[host.state.state] ?? 0) + 1;
  return counts;
}

/** States entered after creation, summed over hosts (each transition bumps an object's version once). */
export function transitionCount(hosts: readonly ObjectStateView[]): number {
  return hosts.reduce((sum, host) => sum + host.version - 1, 0);
}

/** `12 ready · 3 hostInit · 1 dpuInit` (ready first). */
export function progressLine(hosts: readonly ObjectStateView[], expected: number, elapsedMs: number): string {
  const counts = countByState(hosts);
  const parts = Object.entries(counts)
    .sort(([a], [b]) => (a === "ready" ? -1 : b === "ready" ? 1 : a.localeCompare(b)))
    .map(([state, count]) => `${count} ${state}`);
  const waiting = expected - hosts.length;
  if (waiting > 0) parts.push(`${waiting} not ingested`);
  return `${(elapsedMs / 1000).toFixed(0).padStart(4)} s  ${parts.join(" · ")}`;
}

/** The hosts not in `target`, each with its state label and what it waits for. */
export function stuckHosts(
  hosts: readonly ObjectStateView[],
  target: string,
): Array<{ id: string; state: string; aboveSla: boolean; reason: string }> {
  return hosts
    .filter((host) => host.state.state !== target)
    .map((host) => ({
      id: host.objectId,
      state: host.stateLabel,
      aboveSla: host.sla.aboveSla,
      reason: host.outcome?.reason ?? host.outcome?.error?.message ?? host.outcome?.kind ?? "not run yet",
    }));
}
