import { posix } from "node:path";
import type { ImportRef } from "./findImports.ts";
import { splitBareSpecifier, subpathIsExported, type WorkspacePackage } from "./workspace.ts";

/** The scope whose packages the rules govern (a bare import of another scope is npm's business). */
export const WORKSPACE_SCOPE = "@racksmith/";

const CODE_FILE = /\.[cm]?[jt]sx?$/;
const CHECKED_FOLDERS = new Set(["src", "test", "bench"]);

/** Where a checked file lives: the folder its relative imports must stay in, and its package. */
export interface CheckedUnit {
  /** Repository-relative: `packages/core`, or `bench` for the root's benchmarks. */
  readonly root: string;
  /** The package that owns the file (none for `bench/`: the root workspace declares no packages of its own). */
  readonly package: WorkspacePackage | undefined;
}

/**
 * The unit a repository file is checked as, or undefined when the rules do not apply to it: code under a
 * package's `src/`, `test/` or `bench/`, and the root's `bench/`. Config files beside them
 * (`vitest.config.ts` reaching `../../vitest.base.ts`) are not checked.
 */
export function checkedUnitOf(
  path: string,
  packagesByDir: ReadonlyMap<string, WorkspacePackage>,
): CheckedUnit | undefined {
  if (!CODE_FILE.test(path)) return undefined;
  const parts = path.split("/");
  if (parts[0] === "bench" && parts.length > 1) return { root: "bench", package: undefined };
  if (parts[0] !== "packages" || parts.length < 4 || !CHECKED_FOLDERS.has(parts[2] ?? "")) return undefined;
  const root = `packages/${parts[1]}`;
  return { root, package: packagesByDir.get(root) };
}

export type BoundaryRule =
  | "relative-escape"
  | "unexported-subpath"
  | "undeclared-dependency"
  | "unknown-package";

export interface BoundaryViolation {
  readonly file: string;
  readonly line: number;
  readonly specifier: string;
  readonly rule: BoundaryRule;
  readonly message: string;
}

/**
 * The package-boundary rules for one file's imports:
 * - a relative import stays inside the file's unit (its package folder, or `bench/`);
 * - `@racksmith/<pkg>/<subpath>` names a subpath `<pkg>`'s `exports` declares;
 * - a package imports only the `@racksmith/*` packages its package.json declares (or itself).
 */
export function checkBoundaries(
  file: string,
  imports: readonly ImportRef[],
  unit: CheckedUnit,
  workspace: ReadonlyMap<string, WorkspacePackage>,
): BoundaryViolation[] {
  const violations: BoundaryViolation[] = [];
  for (const { specifier, line } of imports) {
    const found = (rule: BoundaryRule, message: string): void => {
      violations.push({ file, line, specifier, rule, message });
    };
    if (specifier.startsWith(".")) {
      const target = posix.normalize(posix.join(posix.dirname(file), specifier));
      if (!target.startsWith(`${unit.root}/`)) {
        const owner = [...workspace.values()].find((p) => target === p.dir || target.startsWith(`${p.dir}/`));
        found(
          "relative-escape",
          owner
            ? `reaches into ${owner.name}'s files (${target}); import one of its exports instead`
            : `leaves ${unit.root}/ (${target})`,
        );
      }
      continue;
    }
    if (!specifier.startsWith(WORKSPACE_SCOPE)) continue;
    const { name, subpath } = splitBareSpecifier(specifier);
    const target = workspace.get(name);
    if (!target) {
      found("unknown-package", `no workspace package is named ${name}`);
      continue;
    }
    if (!subpathIsExported(subpath, target.exports)) {
      found(
        "unexported-subpath",
        `${name} does not export "${subpath}" (its exports: ${(target.exports ?? []).join(", ")})`,
      );
    }
    const own = unit.package;
    if (own && own.name !== name && !own.declared.includes(name)) {
      found(
        "undeclared-dependency",
        `${own.name} does not declare ${name} (add it to dependencies, devDependencies or peerDependencies)`,
      );
    }
  }
  return violations;
}
