import type { HandlerEvent } from "./chain.js";

/** Starts of a run while another run of the same object had not ended (must be 0). */
export function countOverlaps(events: readonly HandlerEvent[]): number {
  const running = new Map<string, number>();
  let overlaps = 0;
  for (const event of [...events].sort((a, b) => a.seq - b.seq)) {
    const open = running.get(event.objectId) ?? 0;
    if (event.kind === "start" && open > 0) overlaps++;
    running.set(event.objectId, open + (event.kind === "start" ? 1 : -1));
  }
  return overlaps;
}

/** For each object: from the end of the handler that transitioned to the start of the next state's handler. */
export function transitionLatencies(events: readonly HandlerEvent[]): number[] {
  const endOf = new Map<string, number>();
  const latencies: number[] = [];
  for (const event of [...events].sort((a, b) => a.seq - b.seq)) {
    const key = `${event.objectId}\u0000${event.state}`;
    if (event.kind === "end") endOf.set(key, event.atMs);
    else {
      const previous = endOf.get(`${event.objectId}\u0000${event.state - 1}`);
      if (previous !== undefined) latencies.push(event.atMs - previous);
    }
  }
  return latencies;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
