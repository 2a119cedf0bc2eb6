export { type FabricSectionName, selectFabricDefinition } from "./selectDefinition.js";
