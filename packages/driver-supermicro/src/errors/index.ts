export {
  BiosAttributeUnknownError,
  FirmwareUpdateBusyError,
  SerialConsoleNotConfigurableError,
  SystemLockdownActiveError,
} from "./errors.js";
