export { type LifecycleApiDeps, requestForceDelete } from "./forceDelete.js";
export { LIFECYCLE_SERVICE, lifecycleGrpcServices } from "./grpcService.js";
export { lifecycleRestRoutes } from "./restRoutes.js";
