import type { InstancesHandlers } from "../../api/grpc/generated/racksmith/v1/Instances.js";
import { DEFAULT_LIMITS, MAX_MESSAGE_LENGTH, type ServiceLimits } from "../../api/index.js";

/** `racksmith.v1.Instances`: a release issue's summary is written for people, as long as REST takes it. */
export const INSTANCES_LIMITS: ServiceLimits<InstancesHandlers> = {
  AllocateInstance: DEFAULT_LIMITS,
  ReleaseInstance: { maxLength: { "issue.summary": MAX_MESSAGE_LENGTH } },
  UpdateInstanceConfig: DEFAULT_LIMITS,
  GetInstance: DEFAULT_LIMITS,
  FindInstances: DEFAULT_LIMITS,
};
