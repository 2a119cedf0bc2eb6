import type { Logger } from "@racksmith/core";
import { timestamp } from "../../../../api/grpc/convert.js";
import type { NvLinkHandlers } from "../../../../api/grpc/generated/racksmith/v1/NvLink.js";
import type { NvLinkLogicalPartition } from "../../../../api/grpc/generated/racksmith/v1/NvLinkLogicalPartition.js";
import { type GrpcServiceModule, requiredString, tenantScopeOf, unary } from "../../../../api/index.js";
import type { LogicalPartitionView } from "../partitions/index.js";
import { NVLINK_LIMITS } from "./grpcLimits.js";
import type { NvLinkApi } from "./nvlinkApi.js";

export const NVLINK_SERVICE = "racksmith.v1.NvLink";
const PROTO_FILE = "racksmith/v1/nvlink.proto";

/** `racksmith.v1.NvLink`: the REST API's operations with the same checks and errors. */
export function nvlinkGrpcServices(api: NvLinkApi, logger: Logger): GrpcServiceModule[] {
  const context = { logger };
  const handlers: NvLinkHandlers = {
    CreateNvLinkPartition: unary(context, async (request, caller) =>
      toMessage(
        await api.create(
          { name: request.name || undefined, tenantOrg: requiredString(request.tenantOrg, "tenant_org") },
          tenantScopeOf(caller),
        ),
      ),
    ),
    ListNvLinkPartitions: unary(context, async (request, caller) => ({
      partitions: (await api.list({ tenantOrg: request.tenantOrg || undefined }, tenantScopeOf(caller))).map(
        toMessage,
      ),
    })),
    GetNvLinkPartition: unary(context, async (request, caller) =>
      toMessage(await api.get(requiredString(request.id, "id"), tenantScopeOf(caller))),
    ),
    DeleteNvLinkPartition: unary(context, async (request, caller) =>
      toMessage(await api.delete(requiredString(request.id, "id"), tenantScopeOf(caller))),
    ),
    BrowseNmxm: unary(context, async (request) => {
      const path = requiredString(request.path, "path");
      return { path, json: JSON.stringify(await api.browse(path)) };
    }),
  };
  return [{ protoFile: PROTO_FILE, serviceName: NVLINK_SERVICE, handlers, limits: NVLINK_LIMITS }];
}

function toMessage(view: LogicalPartitionView): NvLinkLogicalPartition {
  return {
    id: view.id,
    name: view.name,
    tenant: view.tenant,
    state: view.state,
    reason: view.reason ?? "",
    physicalPartitions: view.physicalPartitions.map((p) => ({
      domain: p.domain,
      nmxmId: p.nmxmId,
      ...(p.number !== null ? { number: p.number } : {}),
      name: p.name,
      gpus: p.gpus,
    })),
    createdAt: timestamp(view.createdAt),
    ...(view.deletedAt ? { deletedAt: timestamp(view.deletedAt) } : {}),
  };
}
