export { checkFabricDefinition } from "./checkDefinition.js";
export { type FabricErrorCode, type FabricErrorWording, fabricErrorFamily } from "./errorFamily.js";
