export {
  type MachineSetupPlan,
  machineSetupPlan,
  SERIAL_CONSOLE_ATTRIBUTES,
  serialConsoleFlags,
  TPM_CLEAR_ATTRIBUTES,
} from "./xccBiosAttributes.js";
