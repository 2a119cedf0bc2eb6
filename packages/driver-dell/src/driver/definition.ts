import { BIOS_PROFILE_SETTINGS_PROPERTIES, type BmcDriverDefinition, defineBmcDriver } from "@racksmith/core";
import { detectIdrac } from "../detection/index.js";
import { DellIdracDriver } from "./dellIdracDriver.js";

/** The `dell` driver: Dell PowerEdge servers managed by iDRAC. */
export const dellDriver: BmcDriverDefinition = defineBmcDriver({
  name: "dell",
  vendor: "Dell",
  description: "Dell PowerEdge servers managed by iDRAC 9 (iDRAC 10 attribute variants included)",
  models: ["PowerEdge R750", "PowerEdge XE9680"],
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
  detect: detectIdrac,
  create: (client, context) => new DellIdracDriver(client, context),
});
