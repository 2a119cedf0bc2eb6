import {
  BIOS_PROFILE_SETTINGS_SCHEMA,
  type BmcDriverDefinition,
  capabilitiesExcept,
  defineBmcDriver,
} from "@racksmith/core";
import { detectBluefield } from "../detection/index.js";
import { DRIVER_NAME, NvidiaDpuDriver } from "./nvidiaDpuDriver.js";

/** The models the bundled mockups and the real capture describe (system `Model`). */
export const BLUEFIELD_MODELS = ["BlueField-2 SmartNIC Main Card", "BlueField-3 SmartNIC Main Card"] as const;

export const nvidiaDpuDriver: BmcDriverDefinition = defineBmcDriver({
  name: DRIVER_NAME,
  vendor: "NVIDIA",
  description:
    "NVIDIA BlueField-2/3 DPU BMC: NIC/DPU mode, rshim, base MAC, HTTP boot, DPU machine setup (no lockdown, serial console setup or TPM)",
  models: BLUEFIELD_MODELS,
  capabilities: capabilitiesExcept("acPowerCycle", "lockdown", "serialConsole", "tpmClear"),
  settingsSchema: BIOS_PROFILE_SETTINGS_SCHEMA,
  detect: detectBluefield,
  create: (client, context) => new NvidiaDpuDriver(client, context),
});
