export { type BrowsableInfiniBandFabric, browsePath, isBrowsable } from "./browse.js";
export { INFINIBAND_SERVICE, infinibandGrpcServices } from "./grpcService.js";
export type { InfiniBandApi } from "./infinibandApi.js";
export { infinibandRestRoutes } from "./restRoutes.js";
