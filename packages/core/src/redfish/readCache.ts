/** A GET answer as the cache keeps it: the JSON text, so every reader parses its own copy. */
export interface CachedRead {
  status: number;
  path: string;
  headers: Record<string, string>;
  text: string;
  etag?: string;
  location?: string;
  /** False for a member copied out of an expanded collection: its own headers were never seen. */
  complete: boolean;
}

/**
 * GET answers shared within one unit of work (an exploration): a resource several readers ask for (the
 * system, which the report, the NIC list, the BIOS and secure boot reads all start from) is fetched once, and
 * a request already in flight is joined rather than sent again. Failures are not kept.
 */
export class ReadCache {
  private readonly entries = new Map<string, CachedRead | Promise<CachedRead>>();

  /** The answer for `path`: a kept one, the one in flight, or `fetch`'s (kept on success). */
  async read(path: string, fetch: () => Promise<CachedRead>, needHeaders: boolean): Promise<CachedRead> {
    const known = this.entries.get(path);
    if (known && !(needHeaders && !(known instanceof Promise) && !known.complete)) return known;
    const pending = fetch();
    this.entries.set(path, pending);
    try {
      const read = await pending;
      if (this.entries.get(path) === pending) this.entries.set(path, read);
      return read;
    } catch (error) {
      if (this.entries.get(path) === pending) this.entries.delete(path);
      throw error;
    }
  }

  /** Keeps a member an expanded collection carried, unless its own answer is already kept or coming. */
  seed(path: string, member: object): void {
    if (this.entries.has(path)) return;
    this.entries.set(path, { status: 200, path, headers: {}, text: JSON.stringify(member), complete: false });
  }

  clear(): void {
    this.entries.clear();
  }
}
