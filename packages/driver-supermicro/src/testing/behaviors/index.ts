import type { MockupBehavior } from "@racksmith/testkit";
import { acPowerCycleBehavior } from "./acPowerCycle.js";
import { biosSettingsBehavior } from "./biosSettings.js";
import { bootOrderBehavior } from "./bootOrder.js";
import { fixedBootOrderBehavior } from "./fixedBootOrder.js";
import { kcsInterfaceBehavior } from "./kcsInterface.js";

export { acPowerCycleBehavior } from "./acPowerCycle.js";
export { applyStagedBios, biosSettingsBehavior, performPendingOperations } from "./biosSettings.js";
export { bootOrderBehavior } from "./bootOrder.js";
export { fixedBootOrderBehavior } from "./fixedBootOrder.js";
export { kcsInterfaceBehavior } from "./kcsInterface.js";
export { NO_CONTENT, propertyUnknown, redfishRefusal, valueNotInList } from "./responses.js";

/** Everything a Supermicro BMC does beyond the generic mockup server, in the order it must run. */
export const SUPERMICRO_BEHAVIORS: readonly MockupBehavior[] = [
  biosSettingsBehavior,
  fixedBootOrderBehavior,
  bootOrderBehavior,
  acPowerCycleBehavior,
  kcsInterfaceBehavior,
];
