export {
  compareFirmware,
  firmwareAtLeast,
  IPMI_HOST_INTERFACE_MIN_FIRMWARE,
  isMgxC2,
  keepsHostInterfaceOn,
} from "./models.js";
