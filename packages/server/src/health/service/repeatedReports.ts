/** Entries kept before the record starts afresh (a fleet's machines × their sources, with room to spare). */
const DEFAULT_LIMIT = 200_000;

/**
 * What this process last stored for each machine and source, as a content hash (`healthContentHash`) and a
 * time: a report saying the same again within `refreshMs` need not be stored (a BMC's sensors every minute,
 * unchanged for days, were a dozen statements a poll). Another replica's writes are not seen here; the refresh
 * bounds how long that lasts. `refreshMs` 0: every report is stored.
 */
export class RepeatedReports {
  private readonly stored = new Map<string, { hash: string; atMs: number }>();

  constructor(
    private readonly refreshMs: number,
    private readonly limit = DEFAULT_LIMIT,
  ) {}

  /** Whether the last report stored for this machine and source had this content, less than refreshMs ago. */
  isRepeat(machineId: string, source: string, hash: string, now: Date): boolean {
    const last = this.stored.get(keyOf(machineId, source));
    return last !== undefined && last.hash === hash && now.getTime() - last.atMs < this.refreshMs;
  }

  /** Notes a report as stored now. */
  storedNow(machineId: string, source: string, hash: string, now: Date): void {
    if (this.refreshMs <= 0) return;
    if (this.stored.size >= this.limit) this.stored.clear();
    this.stored.set(keyOf(machineId, source), { hash, atMs: now.getTime() });
  }
}

function keyOf(machineId: string, source: string): string {
  return `${machineId}\u0000${source}`;
}
