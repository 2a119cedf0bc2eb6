export { baseMacFromOem, baseMacFromSysImage } from "./baseMac.js";
export {
  HOST_PRIVILEGE_LEVEL,
  INTERNAL_CPU_MODEL,
  isSecretAttribute,
  MACHINE_SETUP_BIOS,
  maskSecrets,
  NIC_MODE_ATTRIBUTE,
  RESET_EFI_VARS_ATTRIBUTE,
  type RenamedAttribute,
  type ResolvedKey,
  resolveAttributeKey,
  UEFI_PASSWORD_ATTRIBUTES,
} from "./biosAttributes.js";
export {
  BOOT_FIRST_PREFIX,
  OVERRIDE_TARGET,
  optionMac,
  pickBootFirstOption,
  pickDpuHttpOption,
} from "./bootOptions.js";
export {
  BIOS_KEYS_RENAMED_IN,
  type BmcFirmwareVersion,
  isOlderThan,
  NIC_MODE_MIN_FIRMWARE,
  parseBmcFirmware,
} from "./firmwareVersion.js";
export { type BluefieldGeneration, bluefieldGeneration, type CardFacts } from "./generation.js";
export { NIC_MODE_VALUE, nicModeFrom, reportedNicMode } from "./nicMode.js";
export { advertisedAction, allowedParameterValues } from "./oemActions.js";
export {
  CARD_CHASSIS_ID,
  type InlineParameterAction,
  type NvidiaManagerOem,
  type NvidiaSystemOem,
  SYS_IMAGE_FIRMWARE_ID,
  type WithSettingsObject,
} from "./resources.js";
