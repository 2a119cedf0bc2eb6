export { MACHINES_SERVICE, SITE_EXPLORER_SERVICE, siteExplorerGrpcServices } from "./grpcService.js";
export { siteExplorerRestRoutes } from "./restRoutes.js";
