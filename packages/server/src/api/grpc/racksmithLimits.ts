import type { RacksmithHandlers } from "./generated/racksmith/v1/Racksmith.js";
import { DEFAULT_LIMITS, type ServiceLimits } from "./requestLimits.js";

/** `racksmith.v1.Racksmith`: object types, ids and states, all within the defaults. */
export const RACKSMITH_LIMITS: ServiceLimits<RacksmithHandlers> = {
  Version: DEFAULT_LIMITS,
  GetObjectState: DEFAULT_LIMITS,
  ListObjects: DEFAULT_LIMITS,
  Enqueue: DEFAULT_LIMITS,
};
