import type { DriverConformanceProfile } from "@racksmith/testkit";
import { hpeMockupBehaviors } from "./behaviors.js";

export {
  hpeBootBehavior,
  hpeMockupBehaviors,
  hpeSystemResetBehavior,
  hpeUefiPasswordBehavior,
} from "./behaviors.js";

/** What `racksmith driver test` and the package's tests give the conformance suite for the hpe driver. */
export const conformance: Record<string, DriverConformanceProfile> = {
  hpe: { behaviors: hpeMockupBehaviors, expectations: { tpmClearLeavesPending: true } },
};
