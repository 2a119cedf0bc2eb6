/**
 * Names for the statements worth preparing on PostgreSQL. A statement text seen `HOT_AFTER` times gets a name;
 * pg then parses it once per connection and PostgreSQL keeps its parse tree (and, after a few runs, a generic
 * plan), where an unnamed statement is parsed and planned at every run — for the engine's final write, a
 * statement of seven CTEs, that was a third of its cost. Names are bounded: every connection may hold each one,
 * so texts that vary with their input (an IN list of N items) must not prepare without end.
 */
export class PreparedStatementNames {
  private readonly names = new Map<string, string>();
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly options: { maxNames: number; hotAfter: number; maxTracked: number } = {
      maxNames: 256,
      hotAfter: 2,
      maxTracked: 4_096,
    },
  ) {}

  /** The statement's name, or undefined to run it unnamed. */
  nameFor(text: string): string | undefined {
    const name = this.names.get(text);
    if (name !== undefined || this.names.size >= this.options.maxNames) return name;
    const count = (this.seen.get(text) ?? 0) + 1;
    if (count < this.options.hotAfter) {
      // Forgetting every count now and then keeps one-off texts from piling up; hot ones come back at once.
      if (this.seen.size >= this.options.maxTracked) this.seen.clear();
      this.seen.set(text, count);
      return undefined;
    }
    this.seen.delete(text);
    const named = `racksmith_${this.names.size}`;
    this.names.set(text, named);
    return named;
  }
}
