import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** What the import rules need to know about one workspace package. */
export interface WorkspacePackage {
  readonly name: string;
  /** Repository-relative folder, e.g. `packages/core`. */
  readonly dir: string;
  /** The subpaths its `exports` declares (`.`, `./redfish`, patterns like `./*`); undefined: no `exports` field. */
  readonly exports: readonly string[] | undefined;
  /** Every package named in its dependencies, devDependencies and peerDependencies. */
  readonly declared: readonly string[];
}

interface Manifest {
  name?: string;
  exports?: unknown;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** The subpaths an `exports` field declares: its `./…` keys, or `.` for a string or a conditions object. */
export function exportedSubpaths(exportsField: unknown): string[] | undefined {
  if (exportsField === undefined) return undefined;
  if (typeof exportsField === "string" || Array.isArray(exportsField)) return ["."];
  if (typeof exportsField !== "object" || exportsField === null) return [];
  const keys = Object.keys(exportsField);
  return keys.some((key) => key.startsWith(".")) ? keys.filter((key) => key.startsWith(".")) : ["."];
}

/** Whether `subpath` (`.` or `./x/y`) is one of `exports`' keys, or matches one of its `*` patterns. */
export function subpathIsExported(subpath: string, exports: readonly string[] | undefined): boolean {
  // Without an `exports` field every file of the package can be imported; the rule has nothing to enforce.
  if (exports === undefined) return true;
  return exports.some((key) => {
    const star = key.indexOf("*");
    if (star < 0) return key === subpath;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    return (
      subpath.length >= prefix.length + suffix.length &&
      subpath.startsWith(prefix) &&
      subpath.endsWith(suffix)
    );
  });
}

/** Splits `@scope/name/sub/path` (or `name/sub`) into the package name and the subpath (`.` or `./sub/path`). */
export function splitBareSpecifier(specifier: string): { name: string; subpath: string } {
  const parts = specifier.split("/");
  const length = specifier.startsWith("@") ? 2 : 1;
  const rest = parts.slice(length);
  return { name: parts.slice(0, length).join("/"), subpath: rest.length ? `./${rest.join("/")}` : "." };
}

export function packageFromManifest(dir: string, manifest: Manifest): WorkspacePackage | undefined {
  if (!manifest.name) return undefined;
  return {
    name: manifest.name,
    dir,
    exports: exportedSubpaths(manifest.exports),
    declared: [
      ...new Set([
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.devDependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {}),
      ]),
    ].sort(),
  };
}

/** The packages of `packages/*` (those with a named package.json), keyed by name. */
export function readWorkspace(root: string, folders: readonly string[]): Map<string, WorkspacePackage> {
  const packages = new Map<string, WorkspacePackage>();
  for (const folder of folders) {
    const file = join(root, "packages", folder, "package.json");
    if (!existsSync(file)) continue;
    const found = packageFromManifest(
      `packages/${folder}`,
      JSON.parse(readFileSync(file, "utf8")) as Manifest,
    );
    if (found) packages.set(found.name, found);
  }
  return packages;
}
