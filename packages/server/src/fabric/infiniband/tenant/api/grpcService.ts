import type { Logger } from "@racksmith/core";
import type { IbPartition } from "../../../../api/grpc/generated/racksmith/v1/IbPartition.js";
import type { InfiniBandHandlers } from "../../../../api/grpc/generated/racksmith/v1/InfiniBand.js";
import { type GrpcServiceModule, tenantScopeOf, unary } from "../../../../api/index.js";
import type { IbPartitionView } from "../partitions/index.js";
import { INFINIBAND_LIMITS } from "./grpcLimits.js";
import type { InfiniBandApi } from "./infinibandApi.js";

export const INFINIBAND_SERVICE = "racksmith.v1.InfiniBand";
const PROTO_FILE = "racksmith/v1/infiniband.proto";

/** `racksmith.v1.InfiniBand`: the REST API's operations with the same checks and errors. */
export function infinibandGrpcServices(api: InfiniBandApi, logger: Logger): GrpcServiceModule[] {
  const context = { logger };
  const handlers: InfiniBandHandlers = {
    CreateIbPartition: unary(context, async (request, caller) =>
      toMessage(
        await api.createPartition(
          {
            name: request.name,
            tenantOrg: request.tenantOrg,
            ...(request.pkey !== undefined ? { pkey: request.pkey } : {}),
          },
          tenantScopeOf(caller),
        ),
      ),
    ),
    GetIbPartition: unary(context, async (request, caller) =>
      toMessage(await api.getPartition(request.id, tenantScopeOf(caller))),
    ),
    FindIbPartitions: unary(context, async (request, caller) => ({
      partitions: (
        await api.listPartitions(
          request.tenantOrg !== undefined ? { tenantOrg: request.tenantOrg } : {},
          tenantScopeOf(caller),
        )
      ).map(toMessage),
    })),
    DeleteIbPartition: unary(context, async (request, caller) =>
      toMessage(await api.deletePartition(request.id, tenantScopeOf(caller))),
    ),
    UfmBrowse: unary(context, async (request) => {
      const answer = await api.browse(request.path);
      return { path: answer.path, status: answer.status, bodyJson: JSON.stringify(answer.body) };
    }),
  };
  return [{ protoFile: PROTO_FILE, serviceName: INFINIBAND_SERVICE, handlers, limits: INFINIBAND_LIMITS }];
}

function toMessage(view: IbPartitionView): IbPartition {
  return {
    id: view.id,
    name: view.name,
    tenantOrg: view.tenantOrg,
    pkey: view.pkey,
    ...(view.requestedPkey !== null ? { requestedPkey: view.requestedPkey } : {}),
    state: view.state,
    ...(view.cause !== null ? { cause: view.cause } : {}),
    createdAt: view.createdAt,
    ...(view.deletedAt !== null ? { deletedAt: view.deletedAt } : {}),
  };
}
