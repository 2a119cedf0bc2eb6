export {
  hostInterfaceSetting,
  ipmiHostInterfaceSetting,
  kcsPrivilegeSetting,
  type LockdownSetting,
  lockdownStatusOf,
  type SettingState,
  sysLockdownSetting,
} from "./lockdownState.js";
export { SystemLockdown } from "./systemLockdown.js";
