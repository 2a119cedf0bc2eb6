import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { KEY_BYTES } from "./cipher.js";
import { CredentialFileError, CredentialKeyExistsError, CredentialKeyInvalidError } from "./errors.js";
import { assertPrivate, errnoReason, makePrivateDirectory, writePrivateFile } from "./privateFiles.js";

/** The key as the file holds it: 32 bytes in base64 (what `credentials init` writes) or hex. */
export function parseKey(text: string, keyFile: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, "hex")
    : /^[A-Za-z0-9+/]{43}=$/.test(trimmed)
      ? Buffer.from(trimmed, "base64")
      : undefined;
  if (key?.length !== KEY_BYTES) {
    throw new CredentialKeyInvalidError(keyFile, `must hold ${KEY_BYTES} bytes in base64 or hex`);
  }
  return key;
}

/** Reads the key after checking only its owner can read it; undefined when the file does not exist. */
export async function readKeyFile(keyFile: string): Promise<Buffer | undefined> {
  const kind = await assertPrivate(keyFile);
  if (kind === undefined) return undefined;
  if (kind === "directory") throw new CredentialKeyInvalidError(keyFile, "is a directory");
  let text: string;
  try {
    text = await readFile(keyFile, "utf8");
  } catch (error) {
    throw new CredentialFileError(keyFile, `cannot read: ${errnoReason(error)}`);
  }
  return parseKey(text, keyFile);
}

/** Writes a new random key (mode 0600), refusing to replace one: that would orphan every stored secret. */
export async function createKeyFile(keyFile: string): Promise<Buffer> {
  const key = randomBytes(KEY_BYTES);
  await makePrivateDirectory(dirname(keyFile));
  try {
    await writePrivateFile(keyFile, `${key.toString("base64")}\n`, { exclusive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new CredentialKeyExistsError(keyFile);
    throw new CredentialFileError(keyFile, `cannot write: ${errnoReason(error)}`);
  }
  return key;
}
