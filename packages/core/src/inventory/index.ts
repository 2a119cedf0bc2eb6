export type * from "./contracts.js";
export { inventoryFeature } from "./feature.js";
