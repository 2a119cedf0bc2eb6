export {
  AccountExistsError,
  AccountSlotsFullError,
  BootOptionNotFoundError,
  DpuNicNotFoundError,
  JobNotCreatedError,
  JobNotFoundError,
  JobQueueBusyError,
  LockedDownError,
  SettingReadOnlyError,
} from "./idracErrors.js";
