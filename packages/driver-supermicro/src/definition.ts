import { BIOS_PROFILE_SETTINGS_PROPERTIES, type BmcDriverDefinition, defineBmcDriver } from "@racksmith/core";
import { detectSupermicro } from "./detect/index.js";
import { SupermicroDriver } from "./driver/index.js";

/** The `supermicro` driver as the plugin registers it. */
export const supermicroDriver: BmcDriverDefinition = defineBmcDriver({
  name: "supermicro",
  vendor: "Supermicro",
  description:
    "Supermicro X12/X13 BMCs: suffixed BIOS attributes, Bios/SD pending settings, System Lockdown, fixed boot order, OEM AC power cycle",
  models: ["SYS-821GE-TNHR", "SYS-121H-TNR"],
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
  detect: (serviceRoot) => detectSupermicro(serviceRoot),
  create: (client, context) => new SupermicroDriver(client, context),
});
