import type { HealthHandlers } from "../../api/grpc/generated/racksmith/v1/Health.js";
import { DEFAULT_LIMITS, MAX_MESSAGE_LENGTH, type ServiceLimits } from "../../api/index.js";

/** `racksmith.v1.Health`: messages written for people as long as the REST API takes them. */
export const HEALTH_LIMITS: ServiceLimits<HealthHandlers> = {
  GetMachineHealth: DEFAULT_LIMITS,
  ListHealthHistory: DEFAULT_LIMITS,
  AddHealthOverride: {
    maxLength: {
      message: MAX_MESSAGE_LENGTH,
      "report.alerts[].message": MAX_MESSAGE_LENGTH,
      "report.alerts[].tenantMessage": MAX_MESSAGE_LENGTH,
    },
  },
  RemoveHealthOverride: DEFAULT_LIMITS,
};
