import type { DriverConformanceProfile } from "@racksmith/testkit";
import { DRIVER_NAME } from "../driver/index.js";
import { BLUEFIELD_BEHAVIORS } from "./behaviors.js";

export {
  BLUEFIELD_BEHAVIORS,
  biosKeysBehavior,
  bootSettingsBehavior,
  hostRshimBehavior,
  modeSetBehavior,
} from "./behaviors.js";

/** What `racksmith driver test` and the conformance tests need to play out a BlueField BMC on a mockup. */
export const conformance: Record<string, DriverConformanceProfile> = {
  [DRIVER_NAME]: { behaviors: BLUEFIELD_BEHAVIORS, expectations: { enumeratesPcieDevices: false } },
};
