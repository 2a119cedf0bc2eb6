export {
  type FrontUsbProperty,
  frontUsbOf,
  hasLockdownSettings,
  isKcsEnabled,
  kcsValue,
  type LockdownSnapshot,
  type LockdownWrite,
  lockdownStatusOf,
  lockdownWrites,
} from "./xccLockdown.js";
