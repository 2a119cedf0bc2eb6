import {
  BIOS_PROFILE_SETTINGS_SCHEMA,
  type BmcDriverDefinition,
  capabilitiesExcept,
  defineBmcDriver,
} from "@racksmith/core";
import { detectSupermicro } from "./detect/index.js";
import { SupermicroDriver } from "./driver/index.js";

/** The `supermicro` driver as the plugin registers it. */
export const supermicroDriver: BmcDriverDefinition = defineBmcDriver({
  name: "supermicro",
  vendor: "Supermicro",
  description:
    "Supermicro X12/X13 BMCs: suffixed BIOS attributes, Bios/SD pending settings, System Lockdown, fixed boot order, OEM AC power cycle",
  models: ["SYS-821GE-TNHR", "SYS-121H-TNR"],
  // Everything the contract has except what this hardware lacks.
  capabilities: capabilitiesExcept("dpu"),
  settingsSchema: BIOS_PROFILE_SETTINGS_SCHEMA,
  detect: (serviceRoot) => detectSupermicro(serviceRoot),
  create: (client, context) => new SupermicroDriver(client, context),
});
