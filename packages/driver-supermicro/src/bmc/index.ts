export { type BmcAccess, oemLink } from "./access.js";
export {
  isBootOrderUnknown,
  isNotFound,
  lockdownRefusal,
  updateBusyRefusal,
  withLockdownRefusal,
} from "./responses.js";
