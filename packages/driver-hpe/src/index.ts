import { readFileSync } from "node:fs";
import { definePlugin } from "@racksmith/core";
import { hpeDriverDefinition } from "./driver/index.js";

// Read at load time so the manifest carries the published version, from src (tests) and dist alike.
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

export default definePlugin({
  name: "@racksmith/driver-hpe",
  version,
  apiVersion: 1,
  description: "HPE iLO 5/6 BMC driver",
  register(registry) {
    registry.bmcDriver(hpeDriverDefinition);
  },
});

/** The core's class (every driver raises the same one), re-exported for code that imported it from here. */
export { BootOptionNotFoundError } from "@racksmith/core";
export { detectHpe } from "./detection/index.js";
export { HpeDriver, hpeDriverDefinition } from "./driver/index.js";
