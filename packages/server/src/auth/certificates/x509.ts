import { createPrivateKey, createPublicKey, KeyObject, webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";

// @peculiar/x509 signs through WebCrypto: Node's.
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/** ECDSA P-256 with SHA-256: small, fast keys every TLS stack takes. */
export const KEY_ALGORITHM = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;

export { x509 };

export function generateKeys(): Promise<webcrypto.CryptoKeyPair> {
  return webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ["sign", "verify"]);
}

/** A private key as PKCS#8 PEM, what TLS stacks read. */
export function privateKeyPem(key: webcrypto.CryptoKey): string {
  return KeyObject.from(key).export({ type: "pkcs8", format: "pem" }).toString();
}

/** A PKCS#8 PEM private key (with its public half) as a WebCrypto key pair for signing. */
export async function keysFromPem(pem: string): Promise<webcrypto.CryptoKeyPair> {
  const privateKeyObject = createPrivateKey(pem);
  const publicKeyObject = createPublicKey(privateKeyObject);
  const privateKey = await webcrypto.subtle.importKey(
    "pkcs8",
    privateKeyObject.export({ type: "pkcs8", format: "der" }),
    KEY_ALGORITHM,
    true,
    ["sign"],
  );
  const publicKey = await webcrypto.subtle.importKey(
    "spki",
    publicKeyObject.export({ type: "spki", format: "der" }),
    KEY_ALGORITHM,
    true,
    ["verify"],
  );
  return { privateKey, publicKey };
}

/** A random positive serial number, 16 bytes in hex. */
export function serialNumber(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  // First byte 0x01–0x7f: positive, and never a leading zero DER would drop (16 bytes, as read back).
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x01;
  return Buffer.from(bytes).toString("hex");
}
