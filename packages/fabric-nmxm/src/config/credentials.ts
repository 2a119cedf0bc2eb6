import { readFile } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { NmxmConfigError } from "./errors.js";
import { CONFIG_SECTION, type NmxmConfig } from "./schema.js";

/** What the client needs to connect, secrets included. Never logged, never put in an error. */
export interface NmxmConnectionSettings {
  endpoint: string;
  username: string;
  password: string;
  /** PEM bundle the NMX-M certificate must chain to (default: the system's CAs). */
  ca?: string;
  allowInsecure: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
}

/** Reads the credential and CA files named by the config (relative to `baseDir`). */
export async function readConnectionSettings(
  config: NmxmConfig,
  baseDir: string = process.cwd(),
): Promise<NmxmConnectionSettings> {
  const problems: string[] = [];
  const read = async (key: keyof NmxmConfig, path: string | undefined): Promise<string | undefined> => {
    if (path === undefined) return undefined;
    try {
      return await readFile(isAbsolute(path) ? path : resolve(baseDir, path), "utf8");
    } catch (error) {
      // The path and errno only: the error never quotes the file's content.
      const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
      problems.push(`${CONFIG_SECTION}.${key}: cannot read ${JSON.stringify(path)} (${code})`);
      return undefined;
    }
  };
  const [password, usernameFromFile, ca] = await Promise.all([
    read("passwordFile", config.passwordFile),
    read("usernameFile", config.usernameFile),
    read("caFile", config.caFile),
  ]);
  // Files written by editors or `echo` end with a newline that is not part of the secret.
  const trimmedPassword = password?.replace(/\r?\n$/, "");
  if (password !== undefined && !trimmedPassword)
    problems.push(`${CONFIG_SECTION}.passwordFile: ${JSON.stringify(config.passwordFile)} is empty`);
  const username = config.username ?? usernameFromFile?.trim();
  if (usernameFromFile !== undefined && !username)
    problems.push(`${CONFIG_SECTION}.usernameFile: ${JSON.stringify(config.usernameFile)} is empty`);
  if (ca !== undefined && !ca.includes("-----BEGIN CERTIFICATE-----"))
    problems.push(`${CONFIG_SECTION}.caFile: ${JSON.stringify(config.caFile)} holds no PEM certificate`);
  if (problems.length || !username || !trimmedPassword) throw new NmxmConfigError(problems);
  return {
    endpoint: config.endpoint,
    username,
    password: trimmedPassword,
    ...(ca !== undefined ? { ca } : {}),
    allowInsecure: config.allowInsecure,
    timeoutMs: config.timeoutMs,
    maxResponseBytes: config.maxResponseBytes,
  };
}
