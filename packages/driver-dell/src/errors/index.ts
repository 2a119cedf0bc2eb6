/** The core's class (every driver raises the same one), re-exported for code that imported it from here. */
export { BootOptionNotFoundError } from "@racksmith/core";
export {
  AccountExistsError,
  AccountSlotsFullError,
  DpuNicNotFoundError,
  JobNotCreatedError,
  JobNotFoundError,
  JobQueueBusyError,
  LockedDownError,
  SettingReadOnlyError,
} from "./idracErrors.js";
