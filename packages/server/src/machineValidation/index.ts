export {
  MACHINE_VALIDATION_SERVICE,
  machineValidationGrpcServices,
  machineValidationRestRoutes,
} from "./api/index.js";
export { machineValidationFeature } from "./feature.js";
export { HOST_TESTS_RUNNER } from "./hostTestRuns.js";
export { MachineValidationService, type ValidationRunView } from "./service.js";
