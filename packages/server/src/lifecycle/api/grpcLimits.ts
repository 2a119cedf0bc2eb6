import type { LifecycleHandlers } from "../../api/grpc/generated/racksmith/v1/Lifecycle.js";
import { DEFAULT_LIMITS, type ServiceLimits } from "../../api/index.js";

/** `racksmith.v1.Lifecycle`: a machine id. */
export const LIFECYCLE_LIMITS: ServiceLimits<LifecycleHandlers> = {
  ForceDeleteMachine: DEFAULT_LIMITS,
};
