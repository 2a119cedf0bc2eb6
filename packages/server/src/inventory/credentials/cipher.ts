import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { BmcCredentials } from "../contracts.js";

/** The bytes of an AES-256 key. */
export const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const ALGORITHM = "aes-256-gcm";

/** One secret on disk: AES-256-GCM with a random IV per write; the entry's id is authenticated too. */
interface SealedSecret {
  version: 1;
  algorithm: typeof ALGORITHM;
  iv: string;
  tag: string;
  ciphertext: string;
}

// Binding the id means a file copied over another entry's name fails authentication instead of being used.
const associatedData = (id: string): Buffer => Buffer.from(`racksmith-credential:v1:${id}`, "utf8");

export function sealSecret(key: Buffer, id: string, value: BmcCredentials): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(id));
  const plaintext = Buffer.from(
    JSON.stringify({ username: value.username, password: value.password }),
    "utf8",
  );
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  plaintext.fill(0);
  const sealed: SealedSecret = {
    version: 1,
    algorithm: ALGORITHM,
    iv: iv.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
    ciphertext: ciphertext.toString("base64"),
  };
  return `${JSON.stringify(sealed)}\n`;
}

/** Decrypts and authenticates a sealed secret; throws a plain Error with a secret-free reason otherwise. */
export function openSecret(key: Buffer, id: string, text: string): BmcCredentials {
  let sealed: Partial<SealedSecret>;
  try {
    sealed = JSON.parse(text) as Partial<SealedSecret>;
  } catch {
    throw new Error("not a sealed secret (truncated or not JSON)");
  }
  if (sealed.version !== 1 || sealed.algorithm !== ALGORITHM) throw new Error("unknown format or algorithm");
  const iv = Buffer.from(String(sealed.iv), "base64");
  const tag = Buffer.from(String(sealed.tag), "base64");
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error("malformed IV or tag");
  const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(associatedData(id));
  decipher.setAuthTag(tag);
  let plaintext: Buffer;
  try {
    plaintext = Buffer.concat([
      decipher.update(Buffer.from(String(sealed.ciphertext), "base64")),
      decipher.final(),
    ]);
  } catch {
    throw new Error("authentication failed (modified, or sealed with another key)");
  }
  const value = JSON.parse(plaintext.toString("utf8")) as Partial<BmcCredentials>;
  plaintext.fill(0);
  if (typeof value.username !== "string" || typeof value.password !== "string") {
    throw new Error("sealed value is not a username and password");
  }
  return { username: value.username, password: value.password };
}
