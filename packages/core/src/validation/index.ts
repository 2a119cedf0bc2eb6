export type {
  MachineInventory,
  ValidationResult,
  ValidationTestResult,
} from "./machineInventory.js";
export type {
  ValidationRequest,
  ValidationRunContext,
  ValidationRunner,
  ValidationRunResult,
} from "./runner.js";
