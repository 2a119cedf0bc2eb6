import type { BmcCredentials, CredentialKey, CredentialStore } from "../contracts.js";
import { credentialKeyId, parseCredentialKeyId } from "./keys.js";

/** Secrets in a Map, for tests and tools; keys are normalised exactly as the file store does. */
export class MemoryCredentialStore implements CredentialStore {
  private readonly entries = new Map<string, BmcCredentials>();

  async get(key: CredentialKey): Promise<BmcCredentials | undefined> {
    const value = this.entries.get(credentialKeyId(key));
    return value && { ...value };
  }

  async set(key: CredentialKey, value: BmcCredentials): Promise<void> {
    this.entries.set(credentialKeyId(key), { username: value.username, password: value.password });
  }

  async delete(key: CredentialKey): Promise<void> {
    this.entries.delete(credentialKeyId(key));
  }

  async list(): Promise<CredentialKey[]> {
    return [...this.entries.keys()].sort().flatMap((id) => parseCredentialKeyId(id) ?? []);
  }
}
