export {
  BiosAttributeUnknownError,
  BootOptionNotFoundError,
  FirmwareUpdateBusyError,
  SerialConsoleNotConfigurableError,
  SystemLockdownActiveError,
} from "./errors.js";
