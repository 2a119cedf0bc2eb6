import { checkFabricDefinition } from "../common/index.js";
import type { InfiniBandFabricDefinition } from "./fabric.js";

/** Checks a fabric definition at registration so a bad plugin fails early with a precise message. */
export function defineInfiniBandFabric<T extends InfiniBandFabricDefinition>(definition: T): T {
  return checkFabricDefinition("InfiniBand", definition);
}
