import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { SimulatedSiteMismatchError } from "./errors.js";

/** What makes a simulated site's machines: the same hosts and seed give the same serials, MACs and passwords. */
export interface SiteIdentity {
  hosts: number;
  seed: number;
}

/** The file in a site folder naming the site its embedded database holds. */
export const SITE_MANIFEST_FILE = "simulated-site.json";

/**
 * Checks that the folder holds no other site than `identity` (a folder without a manifest holds none yet);
 * throws `SimulatedSiteMismatchError` naming each difference and how to resume it or start afresh.
 */
export async function checkSiteManifest(dir: string, identity: SiteIdentity): Promise<void> {
  const stored = await readSiteManifest(dir);
  if (!stored) return;
  const differences = (["hosts", "seed"] as const)
    .filter((key) => stored[key] !== identity[key])
    .map((key) => `${key} ${stored[key]} (this run: ${identity[key]})`);
  if (differences.length === 0) return;
  throw new SimulatedSiteMismatchError(
    dir,
    differences,
    `resume it with hosts ${stored.hosts} and seed ${stored.seed}, or start afresh in another folder (or remove ${dir})`,
  );
}

/** Records the site the folder's database now holds (written once its machines are registered). */
export async function writeSiteManifest(dir: string, identity: SiteIdentity): Promise<void> {
  const manifest: SiteIdentity = { hosts: identity.hosts, seed: identity.seed };
  await writeFile(join(dir, SITE_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}

async function readSiteManifest(dir: string): Promise<SiteIdentity | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, SITE_MANIFEST_FILE), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const value = parseManifest(text);
  if (!value) {
    throw new SimulatedSiteMismatchError(
      dir,
      [`its ${SITE_MANIFEST_FILE} names no hosts and seed`],
      `start afresh in another folder (or remove ${dir})`,
    );
  }
  return value;
}

function parseManifest(text: string): SiteIdentity | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const { hosts, seed } = (value ?? {}) as Partial<SiteIdentity>;
  return typeof hosts === "number" && typeof seed === "number" ? { hosts, seed } : undefined;
}
