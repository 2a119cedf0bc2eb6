export { type BmcAccess, oemLink } from "./access.js";
export {
  isBootOrderUnknown,
  isNotFound,
  lockdownRefusal,
  taskRefOf,
  updateBusyRefusal,
  withLockdownRefusal,
} from "./responses.js";
