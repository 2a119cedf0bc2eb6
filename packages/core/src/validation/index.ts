export type {
  HostTest,
  HostTestOutcome,
  HostTestRules,
  HostTestSelection,
  HostTestTarget,
} from "./hostTests.js";
export type {
  MachineInventory,
  ValidationResult,
  ValidationTestResult,
} from "./machineInventory.js";
export {
  VALIDATION_RUN_CONTEXTS,
  type ValidationRequest,
  type ValidationRunContext,
  type ValidationRunner,
  type ValidationRunResult,
} from "./runner.js";
export type { GenerateSkuRequest, SkuDocument, SkuMismatch, SkuRules } from "./skuRules.js";
