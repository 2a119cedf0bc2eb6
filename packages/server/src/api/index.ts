export {
  type AccessGate,
  type CallCredentials,
  type Caller,
  type CallerProof,
  type CallOutcome,
  type Operation,
  operationKey,
  ROLES,
  type Role,
} from "./access.js";
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
export { callerOf } from "./grpc/guardService.js";
export { loadRacksmithProto, PROTO_LOADER_OPTIONS, PROTO_ROOT } from "./grpc/loadProto.js";
export {
  DEFAULT_LIMITS,
  DEFAULT_MAX_REQUEST_BYTES,
  type MethodLimits,
  type ServiceLimits,
} from "./grpc/requestLimits.js";
export { requiredString } from "./grpc/requiredString.js";
export {
  assertStorableText,
  childPath,
  DEFAULT_MAX_ARRAY_ITEMS,
  DEFAULT_MAX_STRING_LENGTH,
  excerpt,
  fieldPath,
  findBadText,
  MAX_ADDRESS_LENGTH,
  MAX_ID_LENGTH,
  MAX_MAC_LENGTH,
  MAX_MESSAGE_LENGTH,
  MAX_PASSWORD_LENGTH,
  quoted,
  textProblem,
} from "./input/index.js";
export {
  createRestServer,
  type RestRoutes,
  type RestServerOptions,
  type RestTls,
} from "./rest/createRestServer.js";
export { idParams, idString } from "./rest/schemas.js";
export {
  listedTenantOrg,
  TenantNotFoundError,
  tenantOrgFor,
  tenantScopeOf,
  visibleToTenant,
} from "./tenantScope.js";
