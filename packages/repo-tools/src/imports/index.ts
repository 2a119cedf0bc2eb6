export {
  ALLOWED_STEPS,
  type AllowedStep,
  COMPOSITION_FILES,
  type CompositionFile,
  checkedEdges,
  staleSteps,
} from "./allowlist.ts";
export {
  type BoundaryRule,
  type BoundaryViolation,
  type CheckedUnit,
  checkBoundaries,
  checkedUnitOf,
  WORKSPACE_SCOPE,
} from "./boundaries.ts";
export {
  bypassesIndex,
  FEATURE_CONTAINERS,
  type FeatureCycle,
  type FeatureEdge,
  featureOf,
  findFeatureCycles,
  resolveRelative,
} from "./featureGraph.ts";
export { findImports, type ImportRef } from "./findImports.ts";
export { type ImportScan, isRuntimeSource, scanImports } from "./scan.ts";
export {
  exportedSubpaths,
  packageFromManifest,
  readWorkspace,
  splitBareSpecifier,
  subpathIsExported,
  type WorkspacePackage,
} from "./workspace.ts";
