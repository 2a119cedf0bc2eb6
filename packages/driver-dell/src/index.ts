import { readFileSync } from "node:fs";
import { definePlugin } from "@racksmith/core";
import { dellDriver } from "./driver/index.js";

// Read at runtime so the manifest's version is the package's, from src (tests) and dist alike.
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

export default definePlugin({
  name: "@racksmith/driver-dell",
  version,
  apiVersion: 1,
  description: "BMC driver for Dell iDRAC (PowerEdge)",
  register(registry) {
    registry.bmcDriver(dellDriver);
  },
});

export { detectIdrac } from "./detection/index.js";
export { DellIdracDriver, dellDriver } from "./driver/index.js";
export {
  AccountExistsError,
  AccountSlotsFullError,
  BootOptionNotFoundError,
  DpuNicNotFoundError,
  JobNotCreatedError,
  JobNotFoundError,
  JobQueueBusyError,
  LockedDownError,
  SettingReadOnlyError,
} from "./errors/index.js";
