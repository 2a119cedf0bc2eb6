export { MACHINE_VALIDATION_SERVICE, machineValidationGrpcServices } from "./grpcService.js";
export { machineValidationRestRoutes } from "./restRoutes.js";
