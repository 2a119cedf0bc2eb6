import type { SchemaObject } from "ajv";
import { parseIpv4Pool } from "./ipv4.js";

/** A vendor's factory-default BMC login, with the password in a file operators mount. */
export interface FactoryDefaultConfig {
  username: string;
  passwordFile: string;
}

/**
 * The `inventory` config section as loaded. Sub-sections are optional (the loader fills a leaf's default only
 * when its section is written), so code reads it through `resolveInventoryConfig`.
 */
export interface InventoryConfig {
  dhcp?: { underlayPool?: string };
  credentials?: {
    directory?: string;
    keyFile?: string;
    siteBmcRootUsername?: string;
    siteBmcRootPasswordFile?: string;
    factoryDefaults?: Record<string, FactoryDefaultConfig>;
  };
}

/** Every inventory setting with its default applied; file paths still relative to the config file. */
export interface ResolvedInventoryConfig {
  dhcp: { underlayPool: string };
  credentials: {
    directory: string;
    keyFile: string;
    siteBmcRootUsername: string;
    siteBmcRootPasswordFile: string | undefined;
    factoryDefaults: Record<string, FactoryDefaultConfig>;
  };
}

export const DEFAULT_UNDERLAY_POOL = "10.100.0.0/16";
export const DEFAULT_CREDENTIALS_DIRECTORY = ".racksmith/credentials";
export const DEFAULT_CREDENTIALS_KEY_FILE = ".racksmith/credentials.key";
const DEFAULT_SITE_BMC_ROOT_USERNAME = "root";

const CIDR_V4 = "^\\d{1,3}(\\.\\d{1,3}){3}/\\d{1,2}$";
export const VENDOR_NAME = "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$";

/** The `inventory` config section; every key documented with a default. */
export const INVENTORY_CONFIG_SCHEMA: SchemaObject = {
  description: "Expected machines, DHCP discoveries and BMC credentials.",
  type: "object",
  additionalProperties: false,
  default: {},
  properties: {
    dhcp: {
      description: "DHCP discoveries relayed to Racksmith (each key has a default).",
      type: "object",
      additionalProperties: false,
      properties: {
        underlayPool: {
          description:
            "IPv4 CIDR BMC addresses are handed out from (network and broadcast addresses skipped).",
          type: "string",
          pattern: CIDR_V4,
          default: DEFAULT_UNDERLAY_POOL,
        },
      },
    },
    credentials: {
      description:
        "The encrypted BMC credential store and secrets mounted as files (each key has a default); paths are relative to the config file.",
      type: "object",
      additionalProperties: false,
      properties: {
        directory: {
          description: "Directory of the encrypted secrets (mode 0700).",
          type: "string",
          minLength: 1,
          default: DEFAULT_CREDENTIALS_DIRECTORY,
        },
        keyFile: {
          description:
            "AES-256 key the secrets are encrypted with (mode 0600; `racksmith credentials init`).",
          type: "string",
          minLength: 1,
          default: DEFAULT_CREDENTIALS_KEY_FILE,
        },
        siteBmcRootUsername: {
          description: "User name of the site-wide BMC root credential read from siteBmcRootPasswordFile.",
          type: "string",
          minLength: 1,
          default: DEFAULT_SITE_BMC_ROOT_USERNAME,
        },
        siteBmcRootPasswordFile: {
          description:
            "File holding the site-wide BMC root password (mode 0600); default none: the store's entry is used.",
          type: "string",
          minLength: 1,
        },
        factoryDefaults: {
          description:
            "Factory-default BMC logins per vendor, e.g. dell: { username: root, passwordFile: secrets/dell }; default none.",
          type: "object",
          default: {},
          propertyNames: { pattern: VENDOR_NAME },
          additionalProperties: {
            type: "object",
            additionalProperties: false,
            required: ["username", "passwordFile"],
            properties: {
              username: { type: "string", minLength: 1 },
              passwordFile: { type: "string", minLength: 1 },
            },
          },
        },
      },
    },
  },
};

/** The section with every default applied. */
export function resolveInventoryConfig(config: InventoryConfig | undefined): ResolvedInventoryConfig {
  const credentials = config?.credentials ?? {};
  return {
    dhcp: { underlayPool: config?.dhcp?.underlayPool ?? DEFAULT_UNDERLAY_POOL },
    credentials: {
      directory: credentials.directory ?? DEFAULT_CREDENTIALS_DIRECTORY,
      keyFile: credentials.keyFile ?? DEFAULT_CREDENTIALS_KEY_FILE,
      siteBmcRootUsername: credentials.siteBmcRootUsername ?? DEFAULT_SITE_BMC_ROOT_USERNAME,
      siteBmcRootPasswordFile: credentials.siteBmcRootPasswordFile,
      factoryDefaults: credentials.factoryDefaults ?? {},
    },
  };
}

/**
 * What the schema's pattern cannot say about the section (a prefix over 32, host bits set); one problem
 * per bad key, each naming it. Empty when the inventory can open with it.
 */
export function inventoryConfigProblems(config: InventoryConfig | undefined): string[] {
  const pool = parseIpv4Pool(resolveInventoryConfig(config).dhcp.underlayPool);
  return "problem" in pool ? [`inventory.dhcp.underlayPool: ${pool.problem}`] : [];
}
