export { DISABLE_ACCOUNT, FREE_ACCOUNT, freeAccountSlot } from "./accounts.js";
export {
  AC_POWER_CYCLE,
  BIOS_UNLOCK,
  machineSetupAttributes,
  machineSetupExpectations,
  serialConsoleAttributes,
  serialConsoleChecks,
  TPM_CLEAR,
} from "./biosSetup.js";
export {
  dpuBootOption,
  firstBootDevice,
  hasDeviceOptions,
  httpDeviceName,
  isHttpDeviceFor,
  withDeviceMacs,
} from "./bootDevices.js";
export {
  type AttributeMap,
  type AttributeValues,
  differing,
  type Expectation,
  evaluateChecks,
  expectationDiffs,
  expectationsOf,
  type SettingCheck,
  textOf,
} from "./checks.js";
export {
  LOCKDOWN_OFF,
  LOCKDOWN_ON,
  lockdownPreparation,
  lockdownStatusOf,
  RACADM,
  SYSTEM_LOCKDOWN,
} from "./lockdown.js";
export { machineSetupOemAttributes, REMOTE_ACCESS, remoteAccessChecks } from "./managerSetup.js";
export { clearSetupPasswordProfile } from "./scp.js";
