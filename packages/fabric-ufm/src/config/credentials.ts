import { readFile } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { InfiniBandFabricConfigError } from "@racksmith/core/infiniband";
import type { UfmClientAuth, UfmTlsOptions } from "../client/index.js";
import { UFM_CONFIG_KEY, UFM_FABRIC_NAME, type UfmFabricConfig } from "./parse.js";

export interface UfmCredentials {
  auth: UfmClientAuth;
  tls: UfmTlsOptions;
}

/**
 * Reads the secret files the config names. A problem names the key and the path, never the content; secret
 * values are trimmed (a trailing newline from `echo` would otherwise become part of the token).
 */
export async function readUfmCredentials(config: UfmFabricConfig, baseDir?: string): Promise<UfmCredentials> {
  const problems: string[] = [];
  const read = async (key: keyof UfmFabricConfig, trim: boolean): Promise<string> => {
    const path = config[key];
    if (typeof path !== "string") return "";
    const full = baseDir && !isAbsolute(path) ? resolve(baseDir, path) : path;
    try {
      const text = await readFile(full, "utf8");
      const value = trim ? text.trim() : text;
      if (!value.trim()) problems.push(`${UFM_CONFIG_KEY}.${key}: ${full} is empty`);
      return value;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
      problems.push(`${UFM_CONFIG_KEY}.${key}: cannot read ${full} (${code})`);
      return "";
    }
  };

  let auth: UfmClientAuth;
  if (config.auth === "token") auth = { mode: "token", token: await read("tokenFile", true) };
  else if (config.auth === "basic")
    auth = { mode: "basic", username: config.username ?? "", password: await read("passwordFile", true) };
  else auth = { mode: "mtls", cert: await read("certFile", false), key: await read("keyFile", false) };
  const ca = config.caFile ? await read("caFile", false) : undefined;
  if (problems.length) throw new InfiniBandFabricConfigError(UFM_FABRIC_NAME, problems);
  return { auth, tls: { allowInsecure: config.allowInsecure, ...(ca ? { ca } : {}) } };
}
