import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { ServiceTokens } from "./serviceTokens.js";

/**
 * The first start's admin token: kept while the file holds one that still verifies as admin, else a new
 * one is issued and written (mode 0600), so the CLI on this machine can find it.
 */
export async function ensureAdminTokenFile(tokens: ServiceTokens, file: string): Promise<string> {
  const existing = await readFile(file, "utf8").then(
    (text) => text.trim(),
    () => "",
  );
  if (existing) {
    const verified = await tokens.verify(existing).catch(() => undefined);
    if (verified?.caller.role === "admin") return existing;
  }
  const { token } = await issueBootstrapToken(tokens);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${token}\n`, { mode: 0o600 });
  return token;
}

export function issueBootstrapToken(tokens: ServiceTokens) {
  return tokens.issue(
    { role: "admin", subject: "bootstrap-admin", description: "written by the service's first start" },
    "racksmith",
  );
}
