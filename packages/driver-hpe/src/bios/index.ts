export {
  ONE_SHOT_ATTRIBUTES,
  SERIAL_CONSOLE_ATTRIBUTES,
  TPM_CLEAR_ATTRIBUTES,
  UEFI_NIC_BOOT_ATTRIBUTES,
  USB_BOOT_ATTRIBUTE,
  VIRTUALIZATION_KEYS,
} from "./attributes.js";
export { type MachineSetupAttributes, machineSetupAttributes, presentIn } from "./machineSetup.js";
export { type StagedBios, stagedSetting } from "./staged.js";
