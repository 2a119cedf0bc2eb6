import { checkFabricDefinition } from "../common/index.js";
import type { NvLinkFabricDefinition } from "./fabric.js";

/** Checks a fabric definition at registration so a bad plugin fails early with a precise message. */
export function defineNvLinkFabric<T extends NvLinkFabricDefinition>(definition: T): T {
  return checkFabricDefinition("NVLink", definition);
}
