import {
  BIOS_PROFILE_SETTINGS_SCHEMA,
  type BmcDriverDefinition,
  capabilitiesExcept,
  defineBmcDriver,
} from "@racksmith/core";
import { detectLenovoXcc } from "../detection/index.js";
import { LenovoXccDriver } from "./lenovoXccDriver.js";

/** The `lenovo` driver: what it implements, how it recognises an XCC, and its config section. */
export const lenovoDriver: BmcDriverDefinition = defineBmcDriver({
  name: "lenovo",
  vendor: "Lenovo",
  description: "Lenovo ThinkSystem servers with an XClarity Controller (XCC, XCC2)",
  models: ["ThinkSystem SR670 V2", "ThinkSystem SR675 V3"],
  // Everything the contract has except what this hardware lacks.
  capabilities: capabilitiesExcept("dpu"),
  settingsSchema: BIOS_PROFILE_SETTINGS_SCHEMA,
  detect: detectLenovoXcc,
  create: (client, context) => new LenovoXccDriver(client, context),
});
