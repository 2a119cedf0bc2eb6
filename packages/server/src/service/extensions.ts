/**
 * A typed slot one feature fills and others read (Backstage's extension points, reduced): a fabric feature
 * adds its instance subsystem, the lifecycle lists them when it runs. Reads happen at call time, so the
 * order features are set up in does not matter.
 */
export interface ExtensionPoint<T> {
  readonly id: string;
  /** Never set: carries `T` for the type checker. */
  readonly __type?: T;
}

export function createExtensionPoint<T>(id: string): ExtensionPoint<T> {
  return { id };
}

/** The extensions of one running service. */
export class Extensions {
  private readonly entries = new Map<string, unknown[]>();

  add<T>(point: ExtensionPoint<T>, value: T): void {
    const list = this.entries.get(point.id) ?? [];
    list.push(value);
    this.entries.set(point.id, list);
  }

  list<T>(point: ExtensionPoint<T>): readonly T[] {
    return (this.entries.get(point.id) ?? []) as T[];
  }
}
