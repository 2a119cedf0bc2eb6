export type { ApiContext, ObjectStateDto, ReadinessCheck, VersionInfo } from "./context.js";
export { type ApiErrorBody, toGrpcError, toHttpError } from "./errors.js";
export { createGrpcServer, type GrpcApi, RACKSMITH_SERVICE } from "./grpc/createGrpcServer.js";
export { loadRacksmithProto, PROTO_LOADER_OPTIONS, PROTO_ROOT } from "./grpc/loadProto.js";
export { createRestServer } from "./rest/createRestServer.js";
