export { ufmFabric } from "./definition.js";
export { UfmInfiniBandFabric } from "./ufmFabric.js";
