import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { exportTarget } from "@racksmith/core";
import type { DriverConformanceProfile } from "./types.js";

/**
 * The `conformance` profiles a driver package exports from its `./testing` entry point (keyed by driver
 * name), or none. Lets `racksmith driver test` play out the package's vendor mockup behaviors.
 */
export async function loadConformanceProfiles(
  packageJsonPath: string | undefined,
): Promise<Readonly<Record<string, DriverConformanceProfile>>> {
  if (!packageJsonPath) return {};
  const manifest = JSON.parse(readFileSync(packageJsonPath, "utf8")) as { exports?: unknown };
  const target = exportTarget(manifest.exports, "./testing");
  if (!target) return {};
  const entry = resolve(dirname(packageJsonPath), target);
  if (!existsSync(entry)) return {};
  const module = (await import(pathToFileURL(entry).href)) as {
    conformance?: Record<string, DriverConformanceProfile>;
  };
  return module.conformance ?? {};
}
