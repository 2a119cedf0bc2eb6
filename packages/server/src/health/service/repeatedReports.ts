/** Entries kept before the record starts afresh (a fleet's machines × their sources, with room to spare). */
const DEFAULT_LIMIT = 200_000;

/** What this process last stored for one machine and source. */
export interface StoredReportMark {
  /** `healthContentHash` of the report. */
  hash: string;
  /** When it was stored: the row's `updated_at`, which guards a refresh. */
  atMs: number;
  /** The machine's host, whose aggregate a refresh recomputes. */
  hostId: string;
}

/**
 * What this process last stored for each machine and source: a report saying the same again within
 * `refreshMs` need not be stored (a BMC's sensors every minute, unchanged for days, were a dozen statements a
 * poll), and after it is refreshed in one statement (`refreshReport`). Another replica's writes are not seen
 * here; the refresh bounds how long that lasts. `refreshMs` 0: every report is stored.
 */
export class RepeatedReports {
  private readonly stored = new Map<string, StoredReportMark>();
  /** When this process last derived and stored each host's aggregate. */
  private readonly recomputedAtMs = new Map<string, number>();

  constructor(
    private readonly refreshMs: number,
    private readonly limit = DEFAULT_LIMIT,
  ) {}

  /** What was stored last for this machine and source, if this process stored it. */
  last(machineId: string, source: string): StoredReportMark | undefined {
    return this.stored.get(keyOf(machineId, source));
  }

  /** Whether `mark` had this content and was stored less than refreshMs ago. */
  isRepeat(mark: StoredReportMark | undefined, hash: string, now: Date): boolean {
    return mark !== undefined && mark.hash === hash && now.getTime() - mark.atMs < this.refreshMs;
  }

  /** Notes a report as stored now. */
  storedNow(machineId: string, source: string, mark: StoredReportMark): void {
    if (this.stored.size >= this.limit) this.stored.clear();
    this.stored.set(keyOf(machineId, source), mark);
  }

  /** Notes a host's aggregate as derived and stored now. */
  recomputed(hostId: string, now: Date): void {
    if (this.recomputedAtMs.size >= this.limit) this.recomputedAtMs.clear();
    this.recomputedAtMs.set(hostId, now.getTime());
  }

  /**
   * Whether a refreshed report needs its host's aggregate derived again: only for what time changes (a silent
   * DPU agent), so once per refresh period per host, not once per report (a host's and its DPU's BMC each).
   */
  aggregateDue(hostId: string, now: Date): boolean {
    const at = this.recomputedAtMs.get(hostId);
    return at === undefined || now.getTime() - at >= this.refreshMs;
  }

  forget(machineId: string, source: string): void {
    this.stored.delete(keyOf(machineId, source));
  }
}

function keyOf(machineId: string, source: string): string {
  return `${machineId}\u0000${source}`;
}
