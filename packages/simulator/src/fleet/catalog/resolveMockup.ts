import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { FleetMockupError } from "../errors.js";
import type { MockupSource } from "../scenario/index.js";

/** A mockup folder, and the driver package it comes from when there is one. */
export interface ResolvedMockup {
  readonly dir: string;
  readonly packageName: string | undefined;
  /** The package's `./testing` entry (its conformance profiles and mockup behaviors), when it has one. */
  readonly testingEntry: string | undefined;
}

interface PackageJson {
  name?: string;
  exports?: unknown;
}

/** `@racksmith/driver-<vendor>` unless the source names its package. */
export function packageOf(source: Pick<MockupSource, "vendor" | "package">): string {
  return source.package ?? `@racksmith/driver-${source.vendor}`;
}

/**
 * Finds a mockup: a `mockup` folder path (relative to `baseDir`), else `model` in the package's `mockups/`.
 * A package name is looked up in `node_modules` walking up from `baseDir`, then from this package (so a
 * scenario anywhere finds the drivers installed next to the simulator). `key` names the scenario entry in
 * errors.
 */
export function resolveMockup(source: MockupSource, baseDir: string, key: string): ResolvedMockup {
  const name = packageOf(source);
  const packageDir = findPackage(name, baseDir);
  const packageField = source.package ? `${key}.package` : `${key}.vendor`;
  if (source.mockup) {
    const dir = resolve(baseDir, source.mockup);
    if (!isDirectory(dir)) throw new FleetMockupError(`${key}.mockup`, `no folder at ${dir}`);
    return {
      dir,
      packageName: packageDir ? name : undefined,
      testingEntry: testingEntryOf(packageDir, packageField),
    };
  }
  if (!packageDir) {
    throw new FleetMockupError(
      packageField,
      `package ${name} not found from ${baseDir} (install it, or give the mockup folder as mockup)`,
    );
  }
  const mockups = join(packageDir, "mockups");
  const dir = join(mockups, source.model ?? "");
  if (!source.model || !isDirectory(dir)) {
    const available = isDirectory(mockups)
      ? readdirSync(mockups, { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => entry.name)
      : [];
    throw new FleetMockupError(
      `${key}.model`,
      `${name} has no mockup ${JSON.stringify(source.model ?? "")}${available.length ? ` (it has ${available.join(", ")})` : ""}`,
    );
  }
  return { dir, packageName: name, testingEntry: testingEntryOf(packageDir, packageField) };
}

function findPackage(name: string, baseDir: string): string | undefined {
  if (name.startsWith(".") || isAbsolute(name)) {
    const dir = resolve(baseDir, name);
    return existsSync(join(dir, "package.json")) ? dir : undefined;
  }
  const here = dirname(fileURLToPath(import.meta.url));
  for (const start of [baseDir, here]) {
    for (let dir = resolve(start); ; dir = dirname(dir)) {
      const candidate = join(dir, "node_modules", name);
      if (existsSync(join(candidate, "package.json"))) return candidate;
      if (dirname(dir) === dir) break;
    }
  }
  return undefined;
}

/** The file the package exports as `./testing` for an ESM import, if it exists. */
function testingEntryOf(packageDir: string | undefined, field: string): string | undefined {
  if (!packageDir) return undefined;
  const json = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as PackageJson;
  const exports = json.exports;
  const entry =
    exports && typeof exports === "object" ? (exports as Record<string, unknown>)["./testing"] : undefined;
  const target = conditionalTarget(entry, exportConditions());
  if (!target) return undefined;
  const file = resolve(packageDir, target);
  // Without its behaviors a virtual BMC answers like a bare mockup (no BIOS jobs, no machine setup): fail here.
  if (!existsSync(file)) {
    throw new FleetMockupError(
      field,
      `${json.name ?? packageDir} exports ./testing as ${target}, which does not exist — build the package (npm run build)`,
    );
  }
  return file;
}

/** `RACKSMITH_PLUGIN_CONDITIONS` first (the monorepo's tests load sources), as the plugin loader does. */
function exportConditions(): string[] {
  const extra = (process.env.RACKSMITH_PLUGIN_CONDITIONS ?? "")
    .split(",")
    .map((condition) => condition.trim())
    .filter(Boolean);
  return [...extra, "import", "node", "default"];
}

function conditionalTarget(entry: unknown, conditions: readonly string[]): string | undefined {
  if (typeof entry === "string") return entry;
  if (!entry || typeof entry !== "object") return undefined;
  for (const condition of conditions) {
    const target = conditionalTarget((entry as Record<string, unknown>)[condition], conditions);
    if (target) return target;
  }
  return undefined;
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}
