import { readFileSync } from "node:fs";
import { definePlugin } from "@racksmith/core";
import { supermicroDriver } from "./definition.js";

// Read at load time so the manifest reports the published version, from src (tests) and dist alike.
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

export default definePlugin({
  name: "@racksmith/driver-supermicro",
  version,
  apiVersion: 1,
  description: "BMC driver for Supermicro servers",
  register(registry) {
    registry.bmcDriver(supermicroDriver);
  },
});

/** The core's class (every driver raises the same one), re-exported for code that imported it from here. */
export { BootOptionNotFoundError } from "@racksmith/core";
export {
  canonicalAttributeName,
  MACHINE_SETUP_ATTRIBUTES,
  machineSetupAttributes,
  resolveAttributeKeys,
} from "./bios/index.js";
export { supermicroDriver } from "./definition.js";
export { detectSupermicro, SUPERMICRO_SCORE } from "./detect/index.js";
export { SupermicroDriver } from "./driver/index.js";
export {
  BiosAttributeUnknownError,
  FirmwareUpdateBusyError,
  SerialConsoleNotConfigurableError,
  SystemLockdownActiveError,
} from "./errors/index.js";
