export type { ApiContext, ObjectStateDto, ReadinessCheck, VersionInfo } from "./context.js";
export { type ApiErrorBody, toGrpcError, toHttpError } from "./errors.js";
export {
  createGrpcServer,
  type GrpcApi,
  type GrpcServiceModule,
  RACKSMITH_SERVICE,
  shutdownGrpcServer,
  unary,
} from "./grpc/createGrpcServer.js";
export { loadRacksmithProto, PROTO_LOADER_OPTIONS, PROTO_ROOT } from "./grpc/loadProto.js";
export { createRestServer, type RestRoutes, type RestServerOptions } from "./rest/createRestServer.js";
export { idParams } from "./rest/schemas.js";
