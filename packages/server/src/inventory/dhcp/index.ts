export { notifyBmcEndpointsChanged } from "./endpointsChanged.js";
export { DhcpLeaseStore } from "./leaseStore.js";
export { preferredAddress } from "./poolStart.js";
