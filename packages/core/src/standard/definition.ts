import { type BmcDriverDefinition, capabilitiesExcept } from "../drivers/bmcDriver.js";
import { RedfishStandard } from "./redfishStandard.js";

/**
 * The fallback driver: claims any Redfish service with the lowest possible score, so a vendor driver that
 * recognises the hardware always wins and an unknown BMC still works.
 */
export const redfishStandardDriver: BmcDriverDefinition = {
  name: "redfish-standard",
  vendor: "DMTF",
  description: "Any DMTF Redfish-compliant BMC, standard resources only (no OEM extensions)",
  // No OEM actions: no AC power cycle, System Lockdown, TPM clear or DPU operations.
  capabilities: capabilitiesExcept("acPowerCycle", "lockdown", "tpmClear", "dpu"),
  detect: (serviceRoot) =>
    serviceRoot.Systems || serviceRoot.Managers || serviceRoot.RedfishVersion ? 1 : 0,
  create: (client, context) => new RedfishStandard(client, context),
};
