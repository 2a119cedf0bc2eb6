import type { DriverConformanceProfile } from "@racksmith/testkit";
import { XCC_BEHAVIORS } from "./xccBehaviors.js";

export {
  applyXccBoot,
  XCC_BEHAVIORS,
  xccAcPowerCycle,
  xccBootApplies,
  xccError,
  xccIfMatchRequired,
} from "./xccBehaviors.js";

/** What `racksmith driver test` and our tests play out on a mockup for the `lenovo` driver. */
export const conformance: Record<string, DriverConformanceProfile> = {
  lenovo: {
    behaviors: XCC_BEHAVIORS,
    // The TPM clear is a BIOS setting staged in Bios/Pending, so it shows as pending until the next boot.
    expectations: { tpmClearLeavesPending: true },
  },
};
