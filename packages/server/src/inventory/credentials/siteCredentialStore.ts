import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { InvalidArgumentError } from "@racksmith/core";
import type { ResolvedInventoryConfig } from "../configSchema.js";
import type { BmcCredentials, CredentialKey, CredentialStore } from "../contracts.js";
import { CredentialFileError, CredentialReadOnlyError } from "./errors.js";
import { type CredentialStoreStatus, FileCredentialStore } from "./fileCredentialStore.js";
import { type FileIdentity, fileIdentity, sameFile } from "./fileIdentity.js";
import { credentialKeyId, describeCredentialKey, normalizeCredentialKey } from "./keys.js";
import { errnoReason, privateStat } from "./privateFiles.js";

/** A credential whose password is a file the config names (a mounted secret); read on every use. */
export interface MountedSecret {
  key: CredentialKey;
  username: string;
  passwordFile: string;
  /** The config key that names the file, for messages. */
  setting: string;
}

/** A key and where its value lives, for `racksmith credentials list` (never the value). */
export interface CredentialEntry {
  key: CredentialKey;
  source: "store" | "file";
  /** The mounted file, for `source: "file"`. */
  file?: string;
}

/**
 * The credentials the inventory serves: secrets mounted as files named in the config (read-only here, they
 * win) over the encrypted file store.
 */
export class SiteCredentialStore implements CredentialStore {
  private readonly mounted: Map<string, MountedSecret>;
  /** Mounted passwords as last read, by file. */
  private readonly lastRead = new Map<string, ReadPassword>();

  constructor(
    readonly store: FileCredentialStore,
    mounted: readonly MountedSecret[] = [],
  ) {
    this.mounted = new Map(mounted.map((secret) => [credentialKeyId(secret.key), secret]));
  }

  async get(key: CredentialKey): Promise<BmcCredentials | undefined> {
    const mounted = this.mounted.get(credentialKeyId(key));
    return mounted ? readMountedSecret(mounted, this.lastRead) : this.store.get(key);
  }

  async set(key: CredentialKey, value: BmcCredentials): Promise<void> {
    this.refuseMounted(key);
    await this.store.set(key, value);
  }

  async delete(key: CredentialKey): Promise<void> {
    this.refuseMounted(key);
    await this.store.delete(key);
  }

  async list(): Promise<CredentialKey[]> {
    return (await this.entries()).map((entry) => entry.key);
  }

  async entries(): Promise<CredentialEntry[]> {
    const stored = (await this.store.list())
      .filter((key) => !this.mounted.has(credentialKeyId(key)))
      .map((key): CredentialEntry => ({ key, source: "store" }));
    const mounted = [...this.mounted.values()].map(
      (secret): CredentialEntry => ({ key: secret.key, source: "file", file: secret.passwordFile }),
    );
    return [...mounted, ...stored];
  }

  /** The store's status, and every mounted file readable by its owner only. */
  async status(): Promise<CredentialStoreStatus> {
    const store = await this.store.status();
    if (!store.ok) return store;
    for (const secret of this.mounted.values()) {
      try {
        await readMountedSecret(secret, this.lastRead);
      } catch (error) {
        return { ok: false, detail: (error as Error).message };
      }
    }
    return this.mounted.size ? { ok: true, detail: `${store.detail}; ${this.mounted.size} mounted` } : store;
  }

  private refuseMounted(key: CredentialKey): void {
    const mounted = this.mounted.get(credentialKeyId(key));
    if (mounted)
      throw new CredentialReadOnlyError(
        describeCredentialKey(mounted.key),
        mounted.setting,
        mounted.passwordFile,
      );
  }
}

/** A mounted file's password as last read, with the file it came from. */
interface ReadPassword {
  password: string;
  file: FileIdentity;
}

/**
 * The secret's password, read again only when its file changed (inode, size, times): one stat per use, which
 * is also the check that nobody else may read it — every BMC session asks for the site's credentials. A file
 * that failed is never its last good read's (a new file, or a write, changes its identity).
 */
async function readMountedSecret(
  secret: MountedSecret,
  lastRead: Map<string, ReadPassword>,
): Promise<BmcCredentials> {
  const info = await privateStat(secret.passwordFile);
  if (!info?.isFile()) {
    throw new CredentialFileError(
      secret.passwordFile,
      `${info === undefined ? "does not exist" : "is a directory"} (${secret.setting})`,
    );
  }
  const identity = fileIdentity(info);
  const known = lastRead.get(secret.passwordFile);
  if (known && sameFile(known.file, identity)) return { username: secret.username, password: known.password };
  let password: string;
  try {
    // Editors and `echo` add a final newline that is not part of the password.
    password = (await readFile(secret.passwordFile, "utf8")).replace(/\r?\n$/, "");
  } catch (error) {
    throw new CredentialFileError(secret.passwordFile, `cannot read: ${errnoReason(error)}`);
  }
  if (!password) throw new CredentialFileError(secret.passwordFile, `is empty (${secret.setting})`);
  lastRead.set(secret.passwordFile, { password, file: identity });
  return { username: secret.username, password };
}

/** The inventory's credential store as the config describes it; relative paths are from `baseDir`. */
export function openSiteCredentialStore(
  config: ResolvedInventoryConfig["credentials"],
  baseDir: string,
): SiteCredentialStore {
  const setting = "inventory.credentials";
  const mounted: MountedSecret[] = [];
  if (config.siteBmcRootPasswordFile) {
    mounted.push({
      key: { kind: "site-bmc-root" },
      username: config.siteBmcRootUsername,
      passwordFile: resolve(baseDir, config.siteBmcRootPasswordFile),
      setting: `${setting}.siteBmcRootPasswordFile`,
    });
  }
  const vendors = new Set<string>();
  for (const [vendor, login] of Object.entries(config.factoryDefaults)) {
    const key = normalizeCredentialKey({ kind: "factory-default", vendor });
    const normalized = credentialKeyId(key);
    if (vendors.has(normalized)) {
      throw new InvalidArgumentError(
        `${setting}.factoryDefaults names vendor ${vendor} twice (vendors ignore case)`,
      );
    }
    vendors.add(normalized);
    mounted.push({
      key,
      username: login.username,
      passwordFile: resolve(baseDir, login.passwordFile),
      setting: `${setting}.factoryDefaults.${vendor}.passwordFile`,
    });
  }
  const store = new FileCredentialStore({
    directory: resolve(baseDir, config.directory),
    keyFile: resolve(baseDir, config.keyFile),
  });
  return new SiteCredentialStore(store, mounted);
}
