import { resolve } from "node:path";
import type { RacksmithConfig } from "../config/index.js";
import { resolveInventoryConfig } from "../inventory/index.js";

/** A file or directory the config names that holds secrets, so must be private to its owner. */
export interface SecretPath {
  /** The config key that names it (`inventory.credentials.keyFile`). */
  key: string;
  /** Absolute: relative paths are from the config file's directory. */
  path: string;
  kind: "file" | "directory";
  /** Made by `racksmith credentials init` (or the first stored secret): not existing yet is fine. */
  createdLater: boolean;
}

export const KEY_FILE_KEY = "inventory.credentials.keyFile";
export const CREDENTIALS_DIRECTORY_KEY = "inventory.credentials.directory";

// A CA bundle and a client certificate are public; every other `…File` of a fabric section is a secret.
const PUBLIC_FILE_KEYS = new Set(["caFile", "certFile"]);

/** Which config keys name secret files, and where those are: inventory credentials and fabric logins. */
export function secretPaths(config: RacksmithConfig, baseDir: string): SecretPath[] {
  const credentials = resolveInventoryConfig(config.inventory).credentials;
  const paths: SecretPath[] = [
    { key: KEY_FILE_KEY, path: resolve(baseDir, credentials.keyFile), kind: "file", createdLater: true },
    {
      key: CREDENTIALS_DIRECTORY_KEY,
      path: resolve(baseDir, credentials.directory),
      kind: "directory",
      createdLater: true,
    },
  ];
  const file = (key: string, value: string): SecretPath => ({
    key,
    path: resolve(baseDir, value),
    kind: "file",
    createdLater: false,
  });
  if (credentials.siteBmcRootPasswordFile) {
    paths.push(file("inventory.credentials.siteBmcRootPasswordFile", credentials.siteBmcRootPasswordFile));
  }
  for (const [vendor, login] of Object.entries(credentials.factoryDefaults)) {
    paths.push(file(`inventory.credentials.factoryDefaults.${vendor}.passwordFile`, login.passwordFile));
  }
  for (const [fabric, section] of Object.entries(config.fabrics)) {
    for (const [key, value] of Object.entries(section ?? {})) {
      if (key.endsWith("File") && !PUBLIC_FILE_KEYS.has(key) && typeof value === "string" && value) {
        paths.push(file(`fabrics.${fabric}.${key}`, value));
      }
    }
  }
  return paths;
}
