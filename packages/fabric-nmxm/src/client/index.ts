export { NmxmClient, type NmxmCountable } from "./nmxmClient.js";
export type * from "./wire.js";
