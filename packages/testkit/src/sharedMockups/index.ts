import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/**
 * The real vendor captures a team keeps next to (never inside) the project, in `../shared/mockups`. Tests
 * use them as extra input when present and must skip, with a printed notice, when they are not.
 */
export const SHARED_VENDORS = ["dell", "hpe", "lenovo", "supermicro", "nvidia_dpu"] as const;
export type SharedVendor = (typeof SHARED_VENDORS)[number];

/** `RACKSMITH_SHARED_MOCKUPS`, else the first `../shared/mockups` found walking up from `startDir`. */
export function sharedMockupsRoot(startDir: string = process.cwd()): string {
  const fromEnv = process.env.RACKSMITH_SHARED_MOCKUPS;
  if (fromEnv) return resolve(fromEnv);
  for (let dir = resolve(startDir); ; dir = dirname(dir)) {
    const candidate = resolve(dir, "..", "shared", "mockups");
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return resolve(startDir, "..", "shared", "mockups");
  }
}

/** The path of one vendor capture, or undefined when it is not there. */
export function sharedMockup(vendor: string, root: string = sharedMockupsRoot()): string | undefined {
  const path = join(root, vendor);
  return existsSync(join(path, "redfish", "v1", "index.json")) ? path : undefined;
}

/** The captures present among `vendors`; prints why tests for the others are skipped. */
export function presentSharedVendors<T extends string = SharedVendor>(
  what: string,
  vendors: readonly T[] = SHARED_VENDORS as unknown as readonly T[],
): T[] {
  const root = sharedMockupsRoot();
  const present = vendors.filter((vendor) => sharedMockup(vendor, root) !== undefined);
  if (present.length === 0) {
    console.warn(
      `[racksmith] skipping ${what}: no vendor captures in ${root} ` +
        "(the shared ../shared/mockups folder is absent; set RACKSMITH_SHARED_MOCKUPS to point at it)",
    );
  } else {
    for (const vendor of vendors.filter((v) => !present.includes(v))) {
      console.warn(`[racksmith] skipping ${what} for ${vendor}: ${join(root, vendor)} holds no capture`);
    }
  }
  return present;
}
