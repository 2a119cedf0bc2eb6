import {
  BIOS_PROFILE_SETTINGS_SCHEMA,
  type BmcDriverDefinition,
  capabilitiesExcept,
  defineBmcDriver,
} from "@racksmith/core";
import { detectIdrac } from "../detection/index.js";
import { DellIdracDriver } from "./dellIdracDriver.js";

/** The `dell` driver: Dell PowerEdge servers managed by iDRAC. */
export const dellDriver: BmcDriverDefinition = defineBmcDriver({
  name: "dell",
  vendor: "Dell",
  description: "Dell PowerEdge servers managed by iDRAC 9 (iDRAC 10 attribute variants included)",
  models: ["PowerEdge R750", "PowerEdge XE9680"],
  // Everything the contract has except what this hardware lacks.
  capabilities: capabilitiesExcept("dpu"),
  settingsSchema: BIOS_PROFILE_SETTINGS_SCHEMA,
  detect: detectIdrac,
  create: (client, context) => new DellIdracDriver(client, context),
});
