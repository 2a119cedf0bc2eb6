import type { LifecycleHandlers } from "../../api/grpc/generated/racksmith/v1/Lifecycle.js";
import { type GrpcServiceModule, unary } from "../../api/index.js";
import { requiredString } from "../agents/protoValues.js";
import { type LifecycleApiDeps, requestForceDelete } from "./forceDelete.js";
import { LIFECYCLE_LIMITS } from "./grpcLimits.js";

export const LIFECYCLE_SERVICE = "racksmith.v1.Lifecycle";
const PROTO_FILE = "racksmith/v1/lifecycle.proto";

/** `racksmith.v1.Lifecycle`: the same operations as the REST routes. */
export function lifecycleGrpcServices(deps: LifecycleApiDeps): GrpcServiceModule[] {
  const handlers: LifecycleHandlers = {
    ForceDeleteMachine: unary({ logger: deps.logger }, async (request) =>
      requestForceDelete(deps, requiredString(request.id, "id")),
    ),
  };
  return [{ protoFile: PROTO_FILE, serviceName: LIFECYCLE_SERVICE, handlers, limits: LIFECYCLE_LIMITS }];
}
