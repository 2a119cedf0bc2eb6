export { createNmxmFabric, nmxmFabric } from "./definition.js";
export { MAX_PARTITION_NAME, NmxmFabric } from "./nmxmFabric.js";
