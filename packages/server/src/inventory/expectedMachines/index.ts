export { checkExpectedMachines } from "./batch.js";
export { parseBmcAddress } from "./bmcAddress.js";
export { EXPECTED_MACHINE_CSV_COLUMNS, parseExpectedMachinesCsv } from "./csv.js";
export {
  type ExpectedMachinesFile,
  parseExpectedMachinesFile,
  parseExpectedMachinesJson,
} from "./importFile.js";
export { ExpectedMachineStore } from "./store.js";
export {
  DPU_MODES,
  type ExpectedMachineValidation,
  type ValidExpectedMachine,
  validateExpectedMachine,
} from "./validate.js";
