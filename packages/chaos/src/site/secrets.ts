import { createReadStream } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Fleet } from "@racksmith/simulator";

/** A secret to look for, and where it came from (never the secret itself in a report). */
export interface Secret {
  readonly value: string;
  readonly source: string;
}

/** Values too short to mean anything when found (a 1-char "password" would match everything). */
const MIN_SECRET_LENGTH = 6;

/**
 * Every secret of a site: the site folder's secret files (the site BMC root password, each vendor's factory
 * password, the credential store's key) and the per-BMC factory passwords the expected machines carry.
 */
export async function siteSecrets(dir: string, fleet: Fleet): Promise<Secret[]> {
  const secrets: Secret[] = [];
  const add = (value: string | undefined, source: string) => {
    const trimmed = value?.trim();
    if (trimmed && trimmed.length >= MIN_SECRET_LENGTH && !secrets.some((s) => s.value === trimmed)) {
      secrets.push({ value: trimmed, source });
    }
  };
  add(await readFile(join(dir, "site-password"), "utf8").catch(() => undefined), "site-password");
  for (const file of await readdir(join(dir, "factory")).catch(() => [] as string[])) {
    add(await readFile(join(dir, "factory", file), "utf8").catch(() => undefined), `factory/${file}`);
  }
  add(await readFile(join(dir, "credentials.key"), "utf8").catch(() => undefined), "credentials.key");
  for (const machine of fleet.expectedMachines) {
    for (const [field, value] of Object.entries(machine)) {
      if (/password/i.test(field) && typeof value === "string") add(value, `expected machine ${field}`);
    }
  }
  return secrets;
}

/** A secret found in a log line: which secret (by source), which log, and the line with it masked. */
export interface SecretLeak {
  readonly source: string;
  readonly log: string;
  readonly line: string;
}

export interface SecretScanResult {
  readonly lines: number;
  readonly leaks: SecretLeak[];
}

/**
 * Scans every `*.log` file of a folder (the site's service logs, after the run, when every secret is known:
 * the credential key only exists once the service made it) for the secrets. A secret may appear escaped in
 * JSON, so both the raw value and its JSON spelling are looked for.
 */
export async function scanLogsForSecrets(
  logsDir: string,
  secrets: readonly Secret[],
): Promise<SecretScanResult> {
  const needles = secrets.map((secret) => ({
    secret,
    spellings: [...new Set([secret.value, JSON.stringify(secret.value).slice(1, -1)])],
  }));
  const leaks: SecretLeak[] = [];
  let lines = 0;
  for (const file of (await readdir(logsDir)).filter((name) => name.endsWith(".log")).sort()) {
    const input = createReadStream(join(logsDir, file), "utf8");
    for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      lines++;
      for (const { secret, spellings } of needles) {
        if (!spellings.some((spelling) => text.includes(spelling))) continue;
        let masked = text;
        for (const spelling of spellings) masked = masked.split(spelling).join(`<${secret.source}>`);
        leaks.push({ source: secret.source, log: file, line: masked.slice(0, 400) });
      }
    }
  }
  return { lines, leaks };
}
