import { readFileSync } from "node:fs";
import { definePlugin } from "@racksmith/core";
import { nvidiaDpuDriver } from "./driver/index.js";

// Read at load time so the manifest reports the published version, from src and from dist alike.
const { name, version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  name: string;
  version: string;
};

export default definePlugin({
  name,
  version,
  apiVersion: 1,
  description: "NVIDIA BlueField-2/3 DPU BMC driver",
  register(registry) {
    registry.bmcDriver(nvidiaDpuDriver);
  },
});

/** The core's class (every driver raises the same one), re-exported for code that imported it from here. */
export { BootOptionNotFoundError } from "@racksmith/core";
export type { BluefieldGeneration } from "./bluefield/index.js";
export { DETECTION_SCORE, detectBluefield } from "./detection/index.js";
export { BLUEFIELD_MODELS, DRIVER_NAME, NvidiaDpuDriver, nvidiaDpuDriver } from "./driver/index.js";
export { BaseMacUnavailableError, UefiPasswordChangeError, UnknownNicModeError } from "./errors.js";
