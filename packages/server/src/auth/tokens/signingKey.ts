import { createPrivateKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from "node:crypto";
import { calculateJwkThumbprint } from "jose";
import { ConfigError } from "../../config/index.js";
import { readOrCreatePrivateFile } from "../privateFile.js";

/** This replica's token-signing key: the private half stays in its file, the public half is published. */
export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: { kty: string; crv: string; x: string };
}

/**
 * Reads the Ed25519 key in `file`, creating it (mode 0600, its folder 0700) when missing; without a file
 * (an in-memory service) the key lives as long as the process.
 */
export async function loadSigningKey(file: string | undefined): Promise<SigningKey> {
  if (!file) return signingKeyOf(generateKeyPairSync("ed25519").privateKey);
  try {
    const text = await readOrCreatePrivateFile(
      file,
      () => `${JSON.stringify(generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" }))}\n`,
    );
    const key = createPrivateKey({ key: JSON.parse(text.toString("utf8")) as JsonWebKey, format: "jwk" });
    if (key.asymmetricKeyType !== "ed25519") throw new Error(`holds an ${key.asymmetricKeyType} key`);
    return await signingKeyOf(key);
  } catch (error) {
    throw keyFileError(file, error);
  }
}

async function signingKeyOf(privateKey: KeyObject): Promise<SigningKey> {
  const { kty = "OKP", crv = "Ed25519", x = "" } = privateKey.export({ format: "jwk" });
  const publicJwk = { kty, crv, x };
  return { kid: await calculateJwkThumbprint(publicJwk), privateKey, publicJwk };
}

function keyFileError(file: string, error: unknown): ConfigError {
  const reason = error instanceof Error ? error.message : String(error);
  return new ConfigError(file, [`auth.signingKeyFile: cannot use it as an Ed25519 private JWK (${reason})`]);
}
