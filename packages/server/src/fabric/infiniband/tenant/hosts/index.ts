export { desiredPkeys, type HostInstance, trackedGuids } from "./desired.js";
export { type HostIbPort, hostGuids, interfaceGuid } from "./hostPorts.js";
