import { readFileSync } from "node:fs";
import { definePlugin } from "@racksmith/core";
import { lenovoDriver } from "./driver/index.js";

// Read at load time from src/ and dist/ alike, so the manifest always carries the published version.
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

export default definePlugin({
  name: "@racksmith/driver-lenovo",
  version,
  apiVersion: 1,
  description: "BMC driver for Lenovo XClarity Controller (ThinkSystem)",
  register(registry) {
    registry.bmcDriver(lenovoDriver);
  },
});

/**
 * @deprecated The XCC raises the core's `BootOptionNotFoundError` (same code, `details.available` lists the
 * entries); this alias is kept for code that imported it from here.
 */
export { BootOptionNotFoundError as BootEntryNotFoundError } from "@racksmith/core";
export { detectLenovoXcc } from "./detection/index.js";
export { LenovoXccDriver, lenovoDriver } from "./driver/index.js";
