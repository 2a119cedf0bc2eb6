export { SKU_SERVICE, skuGrpcServices } from "./grpcService.js";
export { skuRestRoutes } from "./restRoutes.js";
