import type { GrpcServiceModule } from "../api/index.js";
import type { ServiceFeature } from "../service/index.js";

/** The feature, also collecting the gRPC modules it registers: a test learns every method the service serves. */
export function recordingGrpc(feature: ServiceFeature, registered: GrpcServiceModule[]): ServiceFeature {
  return {
    ...feature,
    setup: async (context) => {
      const runtime = await feature.setup(context);
      registered.push(...(runtime.grpc ?? []));
      return runtime;
    },
  };
}
