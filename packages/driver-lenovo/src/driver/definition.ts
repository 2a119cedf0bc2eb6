import { BIOS_PROFILE_SETTINGS_PROPERTIES, type BmcDriverDefinition, defineBmcDriver } from "@racksmith/core";
import { detectLenovoXcc } from "../detection/index.js";
import { LenovoXccDriver } from "./lenovoXccDriver.js";

/** The `lenovo` driver: what it implements, how it recognises an XCC, and its config section. */
export const lenovoDriver: BmcDriverDefinition = defineBmcDriver({
  name: "lenovo",
  vendor: "Lenovo",
  description: "Lenovo ThinkSystem servers with an XClarity Controller (XCC, XCC2)",
  models: ["ThinkSystem SR670 V2", "ThinkSystem SR675 V3"],
  capabilities: [
    "power",
    "acPowerCycle",
    "bmcReset",
    "bootOnce",
    "bootFirst",
    "bootOrderDpuFirst",
    "bios",
    "biosPending",
    "machineSetup",
    "lockdown",
    "serialConsole",
    "accounts",
    "passwordPolicy",
    "uefiPassword",
    "firmwareInventory",
    "firmwareUpdate",
    "thermal",
    "powerMetrics",
    "sensors",
    "systemEventLog",
    "bmcEventLog",
    "secureBoot",
    "tpmClear",
    "inventory",
    "drives",
  ],
  settingsSchema: {
    type: "object",
    additionalProperties: false,
    properties: { ...BIOS_PROFILE_SETTINGS_PROPERTIES },
  },
  detect: detectLenovoXcc,
  create: (client, context) => new LenovoXccDriver(client, context),
});
