import type { BmcCredentials, CredentialKey, CredentialStore } from "../../inventory/contracts.js";

const id = (key: CredentialKey): string =>
  key.kind === "site-bmc-root"
    ? key.kind
    : `${key.kind}:${key.kind === "factory-default" ? key.vendor : key.mac}`;

/**
 * An in-memory credential store for the explorer's tests, recording writes; `failNext` makes the next write
 * of a key fail once (a crash between two steps of a rotation).
 */
export class TestCredentialStore implements CredentialStore {
  readonly entries = new Map<string, BmcCredentials>();
  readonly writes: string[] = [];
  private readonly failures = new Set<string>();

  constructor(initial: Array<[CredentialKey, BmcCredentials]> = []) {
    for (const [key, value] of initial) this.entries.set(id(key), value);
  }

  failNext(key: CredentialKey): void {
    this.failures.add(id(key));
  }

  peek(key: CredentialKey): BmcCredentials | undefined {
    return this.entries.get(id(key));
  }

  async get(key: CredentialKey): Promise<BmcCredentials | undefined> {
    const value = this.entries.get(id(key));
    return value && { ...value };
  }

  async set(key: CredentialKey, value: BmcCredentials): Promise<void> {
    this.check(key);
    this.writes.push(`set ${id(key)}`);
    this.entries.set(id(key), { ...value });
  }

  async delete(key: CredentialKey): Promise<void> {
    this.check(key);
    this.writes.push(`delete ${id(key)}`);
    this.entries.delete(id(key));
  }

  async list(): Promise<CredentialKey[]> {
    return [];
  }

  private check(key: CredentialKey): void {
    if (this.failures.delete(id(key))) throw new Error(`simulated crash writing ${id(key)}`);
  }
}
