export { NVLINK_SERVICE, nvlinkGrpcServices } from "./grpcService.js";
export { type NvLinkApi, nvlinkApi } from "./nvlinkApi.js";
export { nvlinkRestRoutes } from "./restRoutes.js";
