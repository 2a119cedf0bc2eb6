import { createHash } from "node:crypto";

/** Distinct values remembered before the table starts afresh (what it made stays shared). */
const DEFAULT_LIMIT = 50_000;
/** Longer keys are kept as a digest, so a subtree seen once costs its key's digest, not a second copy. */
const DIGEST_ABOVE = 64;

/**
 * Deep-frozen copies of JSON values in which every string and every subtree equal to one made before is that
 * same one. BMCs of a model and firmware describe themselves alike (the same links, OEM sections and
 * `$metadata` namespaces); kept for a fleet of 10,000 BMCs, these descriptions were a third of the monitor's
 * live heap until they shared what they have in common.
 */
export class StructureSharing {
  // Strings are their own keys (no second copy); a subtree's key is its JSON text, or a digest of it.
  private readonly strings = new Map<string, string>();
  private readonly subtrees = new Map<string, object>();

  constructor(private readonly limit: number = DEFAULT_LIMIT) {}

  /** The shared, frozen copy of a JSON value (strings, numbers, booleans, null, arrays and plain objects). */
  share<T>(value: T): T {
    return this.canonical(value) as T;
  }

  /** A frozen copy of a plain object whose own values are shared, while the object itself stays its own. */
  shareMembers<T extends object>(value: T): Readonly<T> {
    return Object.freeze(this.rebuilt(value)) as Readonly<T>;
  }

  private canonical(value: unknown): unknown {
    if (typeof value === "string") return this.remember(this.strings, value, value);
    if (value === null || typeof value !== "object") return value;
    const rebuilt = this.rebuilt(value);
    const json = JSON.stringify(rebuilt);
    const key = json.length > DIGEST_ABOVE ? createHash("sha256").update(json).digest("base64") : json;
    return this.remember(this.subtrees, key, Object.freeze(rebuilt));
  }

  private rebuilt(value: object): object {
    if (Array.isArray(value)) return value.map((item: unknown) => this.canonical(item));
    // fromEntries defines each key as an own property, `__proto__` included (an assignment would not).
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, this.canonical(member)]));
  }

  private remember<V>(table: Map<string, V>, key: string, value: V): V {
    const known = table.get(key);
    if (known !== undefined) return known;
    if (this.size >= this.limit) {
      this.strings.clear();
      this.subtrees.clear();
    }
    table.set(key, value);
    return value;
  }

  /** Distinct values remembered now (for tests). */
  get size(): number {
    return this.strings.size + this.subtrees.size;
  }
}
