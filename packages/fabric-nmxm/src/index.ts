import { readFileSync } from "node:fs";
import { definePlugin } from "@racksmith/core";
import { nmxmFabric } from "./fabric/index.js";

// Read at runtime so the manifest's version is the package's, from src (tests) and dist alike.
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

export default definePlugin({
  name: "@racksmith/fabric-nmxm",
  version,
  apiVersion: 1,
  description: "NVLink fabric for NVIDIA NMX-M",
  register(registry) {
    registry.nvlinkFabric(nmxmFabric);
  },
});

export { NmxmClient } from "./client/index.js";
export type * from "./client/wire.js";
export {
  CONFIG_SECTION,
  type NmxmConfig,
  NmxmConfigError,
  type NmxmConnectionSettings,
  nmxmConfigSchema,
  parseNmxmConfig,
  readConnectionSettings,
} from "./config/index.js";
export { createNmxmFabric, MAX_PARTITION_NAME, NmxmFabric, nmxmFabric } from "./fabric/index.js";
