export { type BootGroup, bootSequence, findGroupOption, groupOfTarget } from "./bootGroups.js";
export {
  dpuEntry,
  firstHttpEntry,
  isDpuEntry,
  isHttpIpv4Entry,
  NETWORK_BOOT_ORDER_ID,
  type NetworkBootOrder,
  parseNetworkBootOrder,
} from "./networkBootOrder.js";
