import type { MachineValidationHandlers } from "../../api/grpc/generated/racksmith/v1/MachineValidation.js";
import { DEFAULT_LIMITS, type ServiceLimits } from "../../api/index.js";

/** A test's definition (or its changes) as JSON text: a command, 64 arguments, lists of platforms and SKUs. */
const MAX_TEST_JSON_LENGTH = 64 * 1024;

/** `racksmith.v1.MachineValidation`: ids within the defaults; a test's JSON up to 64 KiB. */
export const MACHINE_VALIDATION_LIMITS: ServiceLimits<MachineValidationHandlers> = {
  ListValidationTests: DEFAULT_LIMITS,
  AddValidationTest: { maxLength: { testJson: MAX_TEST_JSON_LENGTH } },
  UpdateValidationTest: { maxLength: { changesJson: MAX_TEST_JSON_LENGTH } },
  EnableValidationTest: DEFAULT_LIMITS,
  DisableValidationTest: DEFAULT_LIMITS,
  VerifyValidationTest: DEFAULT_LIMITS,
  StartValidationRun: DEFAULT_LIMITS,
  ListValidationRuns: DEFAULT_LIMITS,
  GetValidationRun: DEFAULT_LIMITS,
};
