export { DhcpLeaseStore } from "./leaseStore.js";
export { preferredAddress } from "./poolStart.js";
