import { type BoundaryViolation, checkBoundaries, checkedUnitOf } from "./boundaries.ts";
import { type FeatureEdge, featureOf, resolveRelative } from "./featureGraph.ts";
import { findImports } from "./findImports.ts";
import type { WorkspacePackage } from "./workspace.ts";

/** What the import check found in a repository. */
export interface ImportScan {
  /** How many files were read. */
  readonly files: number;
  readonly boundaries: readonly BoundaryViolation[];
  /** Per package name: the imports under its `src/` that cross feature folders. */
  readonly featureEdges: ReadonlyMap<string, readonly FeatureEdge[]>;
}

/**
 * Whether a file of `src/` counts in the feature graph: runtime code, not tests and their fixtures (a test
 * may reach across features to set a scene without the features depending on each other).
 */
export function isRuntimeSource(pathInSrc: string): boolean {
  return !/\.test\.[cm]?[jt]sx?$/.test(pathInSrc) && !/(^|\/)(__fixtures__|__support__)\//.test(pathInSrc);
}

/** Reads every checked file (repository-relative paths) once and applies the boundary and feature rules. */
export function scanImports(
  files: readonly string[],
  workspace: ReadonlyMap<string, WorkspacePackage>,
  read: (file: string) => string,
): ImportScan {
  const packagesByDir = new Map([...workspace.values()].map((p) => [p.dir, p] as const));
  const fileSet = new Set(files);
  const boundaries: BoundaryViolation[] = [];
  const featureEdges = new Map<string, FeatureEdge[]>();
  let read_ = 0;
  for (const file of files) {
    const unit = checkedUnitOf(file, packagesByDir);
    if (!unit) continue;
    read_++;
    const imports = findImports(file, read(file));
    boundaries.push(...checkBoundaries(file, imports, unit, workspace));
    const src = `${unit.root}/src/`;
    if (!unit.package || !file.startsWith(src) || !isRuntimeSource(file.slice(src.length))) continue;
    const from = featureOf(file.slice(src.length));
    for (const ref of imports) {
      if (!ref.specifier.startsWith(".")) continue;
      const target = resolveRelative(file, ref.specifier, fileSet);
      if (!target.startsWith(src)) continue;
      const to = featureOf(target.slice(src.length));
      if (to === from) continue;
      const list = featureEdges.get(unit.package.name) ?? [];
      list.push({
        from,
        to,
        file: file.slice(src.length),
        line: ref.line,
        target: target.slice(src.length),
        typeOnly: ref.typeOnly,
      });
      featureEdges.set(unit.package.name, list);
    }
  }
  return { files: read_, boundaries, featureEdges };
}
