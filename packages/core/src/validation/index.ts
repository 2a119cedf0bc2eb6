export type {
  MachineInventory,
  ValidationResult,
  ValidationTestResult,
} from "../lifecycle/machineInventory.js";
export type {
  ValidationRequest,
  ValidationRunContext,
  ValidationRunner,
  ValidationRunResult,
} from "./runner.js";
