export { fabricSectionProblems } from "./sectionProblems.js";
export { type FabricSectionName, selectFabricDefinition } from "./selectDefinition.js";
