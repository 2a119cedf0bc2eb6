import type { BmcCredentials, CredentialStore } from "../inventory/contracts.js";

/** Where a login to try comes from (shown in messages; never the secret itself). */
export type CredentialSource = "rotation-intent" | "bmc" | "bmc-factory" | "factory-default" | "request";

export interface CredentialCandidate {
  source: CredentialSource;
  credentials: BmcCredentials;
}

/** Keys the credential store accepts for a vendor (`factory-default.<vendor>`). */
const VENDOR_KEY = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * The logins to try on a BMC, in order. A rotation intent (a password change that may or may not have reached
 * the BMC) goes first, then the password it replaced; otherwise the BMC's own credentials, then its factory
 * login (the expected machine's, else the vendor's factory default). Duplicates are tried once.
 */
export async function credentialCandidates(
  store: CredentialStore,
  bmc: { mac: string | undefined; vendorKeys: readonly string[] },
): Promise<CredentialCandidate[]> {
  const { mac } = bmc;
  const [intent, own, factory] = await Promise.all([
    mac ? store.get({ kind: "bmc-rotation", mac }) : undefined,
    mac ? store.get({ kind: "bmc", mac }) : undefined,
    mac ? store.get({ kind: "bmc-factory", mac }) : undefined,
  ]);
  const factoryDefault = factory ? undefined : await vendorFactoryDefault(store, bmc.vendorKeys);
  const ordered: Array<CredentialCandidate | undefined> = [
    intent && { source: "rotation-intent", credentials: intent },
    own && { source: "bmc", credentials: own },
    factory && { source: "bmc-factory", credentials: factory },
    factoryDefault && { source: "factory-default", credentials: factoryDefault },
  ];
  const unique: CredentialCandidate[] = [];
  for (const candidate of ordered) {
    if (!candidate) continue;
    const seen = unique.some(
      (u) =>
        u.credentials.username === candidate.credentials.username &&
        u.credentials.password === candidate.credentials.password,
    );
    if (!seen) unique.push(candidate);
  }
  return unique;
}

async function vendorFactoryDefault(
  store: CredentialStore,
  vendorKeys: readonly string[],
): Promise<BmcCredentials | undefined> {
  const keys = [...new Set(vendorKeys.map((key) => key.trim().toLowerCase()))].filter((key) =>
    VENDOR_KEY.test(key),
  );
  for (const vendor of keys) {
    const found = await store.get({ kind: "factory-default", vendor });
    if (found) return found;
  }
  return undefined;
}

/** True for the factory logins the explorer replaces with the site password on first contact. */
export function isFactorySource(source: CredentialSource): boolean {
  return source === "bmc-factory" || source === "factory-default";
}
