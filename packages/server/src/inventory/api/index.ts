export { INVENTORY_SERVICE, inventoryGrpcService } from "./grpcService.js";
export { inventoryRestRoutes } from "./restRoutes.js";
