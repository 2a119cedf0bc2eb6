import type { DriverConformanceProfile } from "@racksmith/testkit";
import { SUPERMICRO_BEHAVIORS } from "./behaviors/index.js";

export {
  acPowerCycleBehavior,
  biosSettingsBehavior,
  bootOrderBehavior,
  fixedBootOrderBehavior,
  kcsInterfaceBehavior,
  propertyUnknown,
  redfishRefusal,
  SUPERMICRO_BEHAVIORS,
  valueNotInList,
} from "./behaviors/index.js";

/** A performance profile per bundled model, so conformance runs machine setup with operator settings too. */
const PERFORMANCE = { performance: { PackageCState: "C0/C1 state" } };

/** What `racksmith driver test` and the package's own tests play out on Supermicro mockups. */
export const conformance: Record<string, DriverConformanceProfile> = {
  supermicro: {
    behaviors: SUPERMICRO_BEHAVIORS,
    expectations: {
      // TPM clear is a one-shot BIOS operation (PendingOperation = "TPM Clear") that the BIOS performs and
      // resets to "None" at the next boot; NICo does not expect it among the pending settings on Supermicro.
      tpmClearLeavesPending: false,
    },
    settings: { biosProfiles: { "SYS-821GE-TNHR": PERFORMANCE, "SYS-121H-TNR": PERFORMANCE } },
  },
};
