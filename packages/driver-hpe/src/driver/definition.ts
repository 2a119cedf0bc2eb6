import {
  BIOS_PROFILE_SETTINGS_SCHEMA,
  type BmcDriverDefinition,
  capabilitiesExcept,
  defineBmcDriver,
} from "@racksmith/core";
import { detectHpe } from "../detection/index.js";
import { HpeDriver } from "./hpeDriver.js";

/** The HPE iLO driver as a plugin registers it. */
export const hpeDriverDefinition: BmcDriverDefinition = defineBmcDriver({
  name: "hpe",
  vendor: "HPE",
  description: "HPE ProLiant servers managed by iLO 5 and iLO 6",
  models: ["ProLiant DL385 Gen10 Plus v2", "ProLiant DL380 Gen11"],
  // Everything the contract has except what this hardware lacks.
  capabilities: capabilitiesExcept("dpu"),
  settingsSchema: BIOS_PROFILE_SETTINGS_SCHEMA,
  detect: detectHpe,
  create: (client, context) => new HpeDriver(client, context),
});
