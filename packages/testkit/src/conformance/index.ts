export { CAPABILITY_CHECKS, type CapabilityCheck, ConformanceFailure } from "./checks.js";
export { loadConformanceProfiles } from "./conformanceProfiles.js";
export {
  CONFORMANCE_CHECKS,
  conformanceFailures,
  conformanceStatuses,
  expectedConformanceStatuses,
} from "./reportSummary.js";
export { runConformance } from "./runConformance.js";
export type {
  CheckContext,
  ConformanceExpectations,
  ConformanceOptions,
  ConformanceReport,
  ConformanceResult,
  ConformanceStatus,
  DriverConformanceProfile,
} from "./types.js";
