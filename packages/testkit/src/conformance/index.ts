export { CAPABILITY_CHECKS, type CapabilityCheck, ConformanceFailure } from "./checks.js";
export { runConformance } from "./runConformance.js";
export type {
  CheckContext,
  ConformanceExpectations,
  ConformanceOptions,
  ConformanceReport,
  ConformanceResult,
  ConformanceStatus,
} from "./types.js";
