/** Merges, retention and hashing all identify a check by (probe id, target): the same probe on two fans is two checks. */
export interface ProbeKeyed {
  id: string;
  target?: string;
}

/** A string key for maps; JSON keeps `("a", undefined)`, `("a", "")` and `("a", "b")` apart. */
export function probeKey(entry: ProbeKeyed): string {
  return JSON.stringify([entry.id, entry.target ?? null]);
}

/**
 * Orders by id, then target (no target first). Plain code-unit comparison, not localeCompare, so the order
 * (and every hash built on it) is the same on every machine.
 */
export function compareProbeKeys(a: ProbeKeyed, b: ProbeKeyed): number {
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  if (a.target === b.target) return 0;
  if (a.target === undefined) return -1;
  if (b.target === undefined) return 1;
  return a.target < b.target ? -1 : 1;
}

/** The earlier of two ISO timestamps (either may be missing); compared as instants, not as text. */
export function earliestTimestamp(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Date.parse(b) < Date.parse(a) ? b : a;
}
