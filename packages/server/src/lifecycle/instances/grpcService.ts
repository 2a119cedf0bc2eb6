import type { Logger } from "@racksmith/core";
import { InvalidArgumentError } from "@racksmith/core";
import { timestamp } from "../../api/grpc/convert.js";
import type { Instance } from "../../api/grpc/generated/racksmith/v1/Instance.js";
import type { InstanceConfig__Output } from "../../api/grpc/generated/racksmith/v1/InstanceConfig.js";
import type { InstancesHandlers } from "../../api/grpc/generated/racksmith/v1/Instances.js";
import { type GrpcServiceModule, tenantScopeOf, unary } from "../../api/index.js";
import { requiredString, uint } from "../agents/protoValues.js";
import { INSTANCES_LIMITS } from "./grpcLimits.js";
import type { InstanceService } from "./instanceService.js";
import type { InstanceView } from "./instanceView.js";

export const INSTANCES_SERVICE = "racksmith.v1.Instances";
const PROTO_FILE = "racksmith/v1/instances.proto";

/** `racksmith.v1.Instances`: the REST API's operations with the same checks and errors. */
export function instancesGrpcServices(service: InstanceService, logger: Logger): GrpcServiceModule[] {
  const context = { logger };
  const handlers: InstancesHandlers = {
    AllocateInstance: unary(context, async (request, caller) =>
      toInstanceMessage(
        await service.allocate(
          {
            tenantOrg: request.tenantOrg,
            machineId: request.machineId,
            instanceType: request.instanceType,
            config: configFromMessage(request.config),
            name: request.name,
          },
          tenantScopeOf(caller),
        ),
      ),
    ),
    ReleaseInstance: unary(context, async (request, caller) =>
      toInstanceMessage(
        await service.release(
          requiredString(request.id, "id"),
          request.issue ? { category: request.issue.category, summary: request.issue.summary } : undefined,
          tenantScopeOf(caller),
        ),
      ),
    ),
    UpdateInstanceConfig: unary(context, async (request, caller) => {
      const id = requiredString(request.id, "id");
      if (!request.config) throw new InvalidArgumentError("config is required");
      return toInstanceMessage(
        await service.updateConfig(
          id,
          configFromMessage(request.config),
          request.ifVersionMatch === undefined ? undefined : uint(request.ifVersionMatch, "if_version_match"),
          tenantScopeOf(caller),
        ),
      );
    }),
    GetInstance: unary(context, async (request, caller) =>
      toInstanceMessage(await service.get(requiredString(request.id, "id"), tenantScopeOf(caller))),
    ),
    FindInstances: unary(context, async (request, caller) => ({
      instances: (
        await service.find(
          {
            tenantOrg: request.tenantOrg,
            machineId: request.machineId,
            includeTerminated: request.includeTerminated,
          },
          tenantScopeOf(caller),
        )
      ).map(toInstanceMessage),
    })),
  };
  return [{ protoFile: PROTO_FILE, serviceName: INSTANCES_SERVICE, handlers, limits: INSTANCES_LIMITS }];
}

/** proto3 has no "absent" for repeated fields: an unset network is no interfaces, as in REST. */
function configFromMessage(config: InstanceConfig__Output | null): unknown {
  if (!config) return undefined;
  return {
    network: {
      interfaces: (config.network?.interfaces ?? []).map((i) => ({
        function: i.function,
        network: i.network,
      })),
    },
    ...(config.infiniband
      ? {
          infiniband: {
            interfaces: config.infiniband.interfaces.map((i) => ({
              device: i.device,
              deviceInstance: i.deviceInstance,
              virtualFunction: i.virtualFunction ?? null,
              partitionId: i.partitionId,
            })),
          },
        }
      : {}),
    ...(config.nvlink
      ? {
          nvlink: {
            gpus: config.nvlink.gpus.map((g) => ({
              deviceInstance: g.deviceInstance,
              logicalPartitionId: g.logicalPartitionId,
            })),
          },
        }
      : {}),
  };
}

/** The stored config as the message carries it (a physical function has no virtual_function). */
function configToMessage(config: InstanceView["config"]): Instance["config"] {
  return {
    network: config.network,
    ...(config.infiniband
      ? {
          infiniband: {
            interfaces: config.infiniband.interfaces.map(({ virtualFunction, ...rest }) => ({
              ...rest,
              ...(virtualFunction !== null ? { virtualFunction } : {}),
            })),
          },
        }
      : {}),
    ...(config.nvlink ? { nvlink: config.nvlink } : {}),
  };
}

export function toInstanceMessage(view: InstanceView): Instance {
  return {
    id: view.id,
    name: view.name,
    machineId: view.machineId,
    tenantOrg: view.tenantOrg,
    ...(view.instanceType !== null ? { instanceType: view.instanceType } : {}),
    config: configToMessage(view.config),
    configVersion: String(view.configVersion),
    status: {
      tenantState: view.status.tenantState,
      hostState: view.status.hostState ?? "",
      configsSynced: view.status.configsSynced,
      healthAlerts: view.status.healthAlerts,
    },
    createdAt: timestamp(view.createdAt),
    ...(view.releaseRequestedAt ? { releaseRequestedAt: timestamp(view.releaseRequestedAt) } : {}),
    ...(view.terminatedAt ? { terminatedAt: timestamp(view.terminatedAt) } : {}),
    ...(view.releaseIssue ? { releaseIssue: view.releaseIssue } : {}),
  };
}
