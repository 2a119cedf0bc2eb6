import type { Logger } from "@racksmith/core";
import { InvalidArgumentError } from "@racksmith/core";
import { timestamp } from "../../api/grpc/convert.js";
import type { MachineSku } from "../../api/grpc/generated/racksmith/v1/MachineSku.js";
import type { Sku } from "../../api/grpc/generated/racksmith/v1/Sku.js";
import type { SkusHandlers } from "../../api/grpc/generated/racksmith/v1/Skus.js";
import { type GrpcServiceModule, requiredString, unary } from "../../api/index.js";
import type { HostSkuView, SkuService, SkuView } from "../skuService.js";
import { SKU_LIMITS } from "./grpcLimits.js";

export const SKU_SERVICE = "racksmith.v1.Skus";
const PROTO_FILE = "racksmith/v1/sku.proto";

function parseDocument(text: string | undefined): unknown {
  try {
    return JSON.parse(requiredString(text, "document_json"));
  } catch (error) {
    if (error instanceof SyntaxError) {
      throw new InvalidArgumentError(`document_json is not JSON: ${error.message}`, {
        details: { field: "document_json" },
      });
    }
    throw error;
  }
}

/** `racksmith.v1.Skus`: the REST API's operations with the same checks and errors. */
export function skuGrpcServices(service: SkuService, logger: Logger): GrpcServiceModule[] {
  const context = { logger };
  const handlers: SkusHandlers = {
    ListSkus: unary(context, async () => ({
      skus: (await service.list()).map((sku) => toSku(sku, false)),
    })),
    GetSku: unary(context, async (request) =>
      toSku(await service.get(requiredString(request.id, "id")), true),
    ),
    CreateSku: unary(context, async (request) =>
      toSku(await service.create(parseDocument(request.documentJson)), true),
    ),
    DeleteSku: unary(context, async (request) =>
      toSku(await service.delete(requiredString(request.id, "id")), true),
    ),
    GenerateSku: unary(context, async (request) => {
      const document = await service.generate(requiredString(request.machineId, "machine_id"), {
        ...(request.id ? { id: request.id } : {}),
        ...(request.description ? { description: request.description } : {}),
      });
      return { documentJson: JSON.stringify(document) };
    }),
    AssignSku: unary(context, async (request) => {
      const machineIds = request.machineIds ?? [];
      if (machineIds.length === 0) throw new InvalidArgumentError("machine_ids is required");
      return toSku(await service.assign(requiredString(request.id, "id"), [...new Set(machineIds)]), true);
    }),
    GetMachineSku: unary(context, async (request) =>
      toMachineSku(await service.hostSku(requiredString(request.machineId, "machine_id"))),
    ),
    UnassignSku: unary(context, async (request) =>
      toMachineSku(await service.unassign(requiredString(request.machineId, "machine_id"))),
    ),
    VerifySku: unary(context, async (request) =>
      toMachineSku(await service.verify(requiredString(request.machineId, "machine_id"))),
    ),
  };
  return [{ protoFile: PROTO_FILE, serviceName: SKU_SERVICE, handlers, limits: SKU_LIMITS }];
}

const at = (date: Date | null) => (date ? timestamp(date.toISOString()) : undefined);

function toSku(view: SkuView, withDocument: boolean): Sku {
  return {
    id: view.id,
    schemaVersion: view.schemaVersion,
    description: view.description,
    createdAt: timestamp(view.createdAt.toISOString()),
    hostIds: view.hostIds,
    documentJson: withDocument ? JSON.stringify(view.document) : "",
  };
}

function toMachineSku(view: HostSkuView): MachineSku {
  const assignedAt = at(view.assignedAt);
  const verifyRequestedAt = at(view.verifyRequestedAt);
  const verifiedAt = at(view.verifiedAt);
  return {
    hostId: view.hostId,
    ...(view.skuId !== null ? { skuId: view.skuId } : {}),
    assignedBy: view.assignedBy ?? "",
    ...(assignedAt ? { assignedAt } : {}),
    ...(verifyRequestedAt ? { verifyRequestedAt } : {}),
    verdictJson: view.verdict ? JSON.stringify(view.verdict) : "",
    ...(verifiedAt ? { verifiedAt } : {}),
    state: view.state,
  };
}
