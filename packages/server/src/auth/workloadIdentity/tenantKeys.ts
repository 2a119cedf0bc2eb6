import { createPrivateKey, createPublicKey, hkdfSync, type KeyObject, randomBytes } from "node:crypto";
import { calculateJwkThumbprint } from "jose";
import { ConfigError } from "../../config/index.js";
import { readOrCreatePrivateFile } from "../privateFile.js";

/** PKCS#8 DER of an Ed25519 key is this prefix and the 32-byte seed. */
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const SECRET_BYTES = 32;

/** One tenant's signing key and its public JWK (with `kid`, `alg`, `use`). */
export interface TenantKey {
  privateKey: KeyObject;
  publicJwk: { kty: string; crv: string; x: string; kid: string; alg: "EdDSA"; use: "sig" };
}

/**
 * Per-tenant signing keys for workload identities, derived (HKDF-SHA256) from one site secret: every replica
 * holding the secret signs with, and publishes, the same key for a tenant, and nothing per tenant is stored.
 */
export class TenantKeys {
  private readonly cache = new Map<string, Promise<TenantKey>>();

  private constructor(private readonly secret: Buffer) {}

  /** Reads the secret in `file`, creating it (0600) when missing; none: a secret for this process only. */
  static async open(file: string | undefined): Promise<TenantKeys> {
    if (!file) return new TenantKeys(randomBytes(SECRET_BYTES));
    const secret = await readOrCreatePrivateFile(file, () => randomBytes(SECRET_BYTES)).catch(
      (error: unknown) => {
        throw secretFileError(file, error);
      },
    );
    if (secret.length < SECRET_BYTES) throw secretFileError(file, new Error(`holds ${secret.length} bytes`));
    return new TenantKeys(secret);
  }

  keyOf(tenantOrg: string): Promise<TenantKey> {
    let key = this.cache.get(tenantOrg);
    if (!key) {
      key = this.derive(tenantOrg);
      this.cache.set(tenantOrg, key);
    }
    return key;
  }

  private async derive(tenantOrg: string): Promise<TenantKey> {
    const seed = Buffer.from(
      hkdfSync("sha256", this.secret, "racksmith-workload-identity", `tenant:${tenantOrg}`, 32),
    );
    const privateKey = createPrivateKey({
      key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
      format: "der",
      type: "pkcs8",
    });
    const { kty = "OKP", crv = "Ed25519", x = "" } = createPublicKey(privateKey).export({ format: "jwk" });
    const kid = await calculateJwkThumbprint({ kty, crv, x });
    return { privateKey, publicJwk: { kty, crv, x, kid, alg: "EdDSA", use: "sig" } };
  }
}

function secretFileError(file: string, error: unknown): ConfigError {
  const reason = error instanceof Error ? error.message : String(error);
  return new ConfigError(file, [`auth.workloadIdentitySecretFile: cannot use it (${reason})`]);
}
