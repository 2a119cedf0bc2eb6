export { macFromBootOptionName, withNameMac } from "./bootOptionMac.js";
export {
  bootFirstPatch,
  dpuFirstPatch,
  entryCategory,
  type FixedBootOrderPatch,
  isDpuFirstInFixedOrder,
} from "./fixedBootOrder.js";
export { patchFixedBootOrder, readFixedBootOrder } from "./fixedBootOrderResource.js";
