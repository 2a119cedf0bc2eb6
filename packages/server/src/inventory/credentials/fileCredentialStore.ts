import { readdir, readFile, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { BmcCredentials, CredentialKey, CredentialStore } from "../contracts.js";
import { openSecret, sealSecret } from "./cipher.js";
import {
  CredentialCorruptError,
  CredentialFileError,
  CredentialKeyExistsError,
  CredentialKeyMissingError,
} from "./errors.js";
import { type FileIdentity, fileIdentity, sameFile } from "./fileIdentity.js";
import { createKeyFile, readKeyFile } from "./keyFile.js";
import {
  credentialKeyId,
  describeCredentialKey,
  normalizeCredentialKey,
  parseCredentialKeyId,
} from "./keys.js";
import {
  assertPrivate,
  errnoReason,
  makePrivateDirectory,
  privateStat,
  writePrivateFile,
} from "./privateFiles.js";

const SUFFIX = ".secret";

export interface FileCredentialStoreOptions {
  /** Directory of the sealed secrets, one file per key (created mode 0700 with the first secret). */
  directory: string;
  /** AES-256 key file (created mode 0600 with the first secret when neither it nor any secret exists). */
  keyFile: string;
}

/** Whether the store can be used, for /readyz; `detail` never holds a secret. */
export interface CredentialStoreStatus {
  ok: boolean;
  detail: string;
}

/**
 * Secrets in a directory, one AES-256-GCM sealed file per key, written atomically (mode 0600). The key file
 * and directory are refused when other users can read them. Nothing is created until the first secret is
 * stored; reading an absent secret needs no key.
 */
export class FileCredentialStore implements CredentialStore {
  readonly directory: string;
  readonly keyFile: string;
  private key: Buffer | undefined;
  /**
   * Secrets as last read, with the file they came from: a `get` whose file is unchanged (inode, size, times)
   * needs one stat, not an open, a read and a decryption — every BMC session asks for its credentials.
   */
  private readonly lastRead = new Map<string, { value: BmcCredentials; file: FileIdentity }>();
  /**
   * Secrets found absent, with the directory as it was then: a secret appears only as a new directory entry
   * (every write renames into place), which changes the directory's times, so while it is unchanged the
   * secret is still absent — most BMCs have no rotation in flight and no factory login of their own.
   */
  private readonly absent = new Map<string, FileIdentity>();
  /** The directory's privacy check in flight: reads that start together share its one `stat`. */
  private directoryCheck: Promise<FileIdentity | undefined> | undefined;

  constructor(options: FileCredentialStoreOptions) {
    this.directory = options.directory;
    this.keyFile = options.keyFile;
  }

  async get(key: CredentialKey): Promise<BmcCredentials | undefined> {
    const id = credentialKeyId(key);
    const file = this.fileOf(id);
    const directory = await this.checkedDirectory();
    if (!directory) return undefined;
    const absentIn = this.absent.get(id);
    if (absentIn && sameFile(absentIn, directory)) return undefined;
    this.absent.delete(id);
    let text: string;
    let identity: FileIdentity;
    try {
      identity = fileIdentity(await stat(file));
      const known = this.lastRead.get(id);
      if (known && sameFile(known.file, identity)) return { ...known.value };
      text = await readFile(file, "utf8");
    } catch (error) {
      this.lastRead.delete(id);
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        this.absent.set(id, directory);
        return undefined;
      }
      throw new CredentialFileError(file, `cannot read: ${errnoReason(error)}`);
    }
    const sealingKey = await this.loadKey();
    if (!sealingKey)
      throw new CredentialKeyMissingError(this.keyFile, `is missing; ${file} cannot be decrypted`);
    try {
      const value = openSecret(sealingKey, id, text);
      this.lastRead.set(id, { value: { ...value }, file: identity });
      return value;
    } catch (error) {
      throw new CredentialCorruptError(
        describeCredentialKey(normalizeCredentialKey(key)),
        file,
        (error as Error).message,
      );
    }
  }

  async set(key: CredentialKey, value: BmcCredentials): Promise<void> {
    const id = credentialKeyId(key);
    const sealingKey = await this.keyForWriting();
    const file = this.fileOf(id);
    this.lastRead.delete(id);
    this.absent.delete(id);
    try {
      await writePrivateFile(file, sealSecret(sealingKey, id, value));
    } catch (error) {
      throw new CredentialFileError(file, `cannot write: ${errnoReason(error)}`);
    }
  }

  async delete(key: CredentialKey): Promise<void> {
    const id = credentialKeyId(key);
    const file = this.fileOf(id);
    this.lastRead.delete(id);
    await assertPrivate(this.directory);
    await unlink(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT")
        throw new CredentialFileError(file, `cannot delete: ${errnoReason(error)}`);
    });
  }

  async list(): Promise<CredentialKey[]> {
    return (await this.ids()).flatMap((id) => parseCredentialKeyId(id) ?? []);
  }

  /** Re-checks permissions and the key every call, so /readyz follows an operator's fix without a restart. */
  async status(): Promise<CredentialStoreStatus> {
    try {
      await assertPrivate(this.directory);
      const key = await readKeyFile(this.keyFile);
      const count = (await this.ids()).length;
      if (!key && count > 0) {
        return {
          ok: false,
          detail: `the key file (credentials.keyFile) is missing but the secrets directory holds ${count} secret(s)`,
        };
      }
      if (!key) return { ok: true, detail: "no secrets yet; the key file is created with the first" };
      return { ok: true, detail: `${count} secret(s) stored` };
    } catch (error) {
      // The reason with the paths named by role: file paths are not the API's to show.
      const reason = (error as Error).message
        .replaceAll(this.keyFile, "the key file")
        .replaceAll(this.directory, "the secrets directory");
      return { ok: false, detail: `credential store unusable: ${reason}` };
    }
  }

  /** The directory's identity once it passed the privacy check (undefined: it does not exist). */
  private checkedDirectory(): Promise<FileIdentity | undefined> {
    this.directoryCheck ??= privateStat(this.directory)
      .then((info) => (info ? fileIdentity(info) : undefined))
      .finally(() => {
        this.directoryCheck = undefined;
      });
    return this.directoryCheck;
  }

  private fileOf(id: string): string {
    return join(this.directory, `${id}${SUFFIX}`);
  }

  private async ids(): Promise<string[]> {
    if ((await assertPrivate(this.directory)) === undefined) return [];
    try {
      const names = await readdir(this.directory);
      return names
        .filter((name) => name.endsWith(SUFFIX) && !name.startsWith("."))
        .map((name) => name.slice(0, -SUFFIX.length))
        .sort();
    } catch (error) {
      throw new CredentialFileError(this.directory, `cannot list: ${errnoReason(error)}`);
    }
  }

  private async loadKey(): Promise<Buffer | undefined> {
    this.key ??= await readKeyFile(this.keyFile);
    return this.key;
  }

  /** `racksmith credentials init`: a new random key and the directory; refuses to replace a key. */
  async init(): Promise<void> {
    if (await this.loadKey()) throw new CredentialKeyExistsError(this.keyFile);
    await this.createKey();
  }

  /** The key, created with the first secret. */
  private async keyForWriting(): Promise<Buffer> {
    const existing = await this.loadKey();
    if (existing) {
      await assertPrivate(this.directory);
      await makePrivateDirectory(this.directory);
      return existing;
    }
    return this.createKey().catch(async (error: unknown) => {
      // Another process created it meanwhile: use theirs.
      this.key = await readKeyFile(this.keyFile);
      if (!this.key) throw error;
      return this.key;
    });
  }

  /** Refused when secrets exist without a key: they need the lost one, a new key would orphan them. */
  private async createKey(): Promise<Buffer> {
    const stored = (await this.ids()).length;
    if (stored > 0) {
      throw new CredentialKeyMissingError(
        this.keyFile,
        `is missing but ${this.directory} holds ${stored} secret(s) sealed with it; restore the key file`,
      );
    }
    await makePrivateDirectory(this.directory);
    this.key = await createKeyFile(this.keyFile);
    return this.key;
  }
}
