import { InvalidArgumentError, normalizeMac } from "@racksmith/core";
import { VENDOR_NAME } from "../configSchema.js";
import type { CredentialKey, CredentialKind } from "../contracts.js";

const MAC_KINDS = new Set<CredentialKind>(["bmc", "bmc-rotation", "bmc-factory"]);
const VENDOR = new RegExp(VENDOR_NAME);

/** The key with its MAC normalised and its vendor lower-cased, so `Dell` and `dell` are one entry. */
export function normalizeCredentialKey(key: CredentialKey): CredentialKey {
  switch (key.kind) {
    case "site-bmc-root":
      return { kind: key.kind };
    case "factory-default": {
      if (typeof key.vendor !== "string" || !VENDOR.test(key.vendor)) {
        throw new InvalidArgumentError(
          `vendor ${JSON.stringify(key.vendor)} must be letters, digits, _ or - (at most 64)`,
        );
      }
      return { kind: key.kind, vendor: key.vendor.toLowerCase() };
    }
    case "bmc":
    case "bmc-rotation":
    case "bmc-factory": {
      const mac = normalizeMac(key.mac);
      if (!mac) throw new InvalidArgumentError(`mac ${JSON.stringify(key.mac)} is not a MAC address`);
      return { kind: key.kind, mac };
    }
    default:
      throw new InvalidArgumentError(
        `unknown credential kind ${JSON.stringify((key as { kind: unknown }).kind)}`,
      );
  }
}

/** A stable, file-name-safe id: `site-bmc-root`, `factory-default.dell`, `bmc.AA-BB-CC-DD-EE-FF`. */
export function credentialKeyId(key: CredentialKey): string {
  const normalized = normalizeCredentialKey(key);
  if (normalized.kind === "site-bmc-root") return normalized.kind;
  if (normalized.kind === "factory-default") return `${normalized.kind}.${normalized.vendor}`;
  return `${normalized.kind}.${normalized.mac.replace(/:/g, "-")}`;
}

/** The key an id names; undefined for anything `credentialKeyId` does not produce. */
export function parseCredentialKeyId(id: string): CredentialKey | undefined {
  const [kind, parameter, ...rest] = id.split(".");
  if (rest.length > 0) return undefined;
  try {
    if (kind === "site-bmc-root" && parameter === undefined) return { kind };
    if (kind === "factory-default" && parameter !== undefined)
      return normalizeCredentialKey({ kind, vendor: parameter });
    if (MAC_KINDS.has(kind as CredentialKind) && parameter !== undefined) {
      return normalizeCredentialKey({ kind: kind as "bmc", mac: parameter.replace(/-/g, ":") });
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** How a key reads in messages: `site-bmc-root`, `factory-default dell`, `bmc AA:BB:CC:DD:EE:FF`. */
export function describeCredentialKey(key: CredentialKey): string {
  if (key.kind === "site-bmc-root") return key.kind;
  return `${key.kind} ${key.kind === "factory-default" ? key.vendor : key.mac}`;
}
