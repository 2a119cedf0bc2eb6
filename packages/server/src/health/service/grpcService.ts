import type { Logger } from "@racksmith/core";
import { InvalidArgumentError } from "@racksmith/core";
import { timestamp } from "../../api/grpc/convert.js";
import type { HealthHandlers } from "../../api/grpc/generated/racksmith/v1/Health.js";
import type { MachineHealth } from "../../api/grpc/generated/racksmith/v1/MachineHealth.js";
import { type GrpcServiceModule, requiredString, unary } from "../../api/index.js";
import type { HealthOverrideMode } from "../overrides.js";
import { healthReportFromProto, healthReportToProto } from "../proto.js";
import { HEALTH_LIMITS } from "./grpcLimits.js";
import type { HealthOverrideInput, HealthService, MachineHealthView } from "./healthService.js";

export const HEALTH_SERVICE = "racksmith.v1.Health";
const PROTO_FILE = "racksmith/v1/health.proto";

/** proto3 has no "absent" string: "" is merge, as the REST default. */
function mode(value: string): HealthOverrideMode | undefined {
  if (value === "") return undefined;
  if (value === "merge" || value === "replace") return value;
  throw new InvalidArgumentError(`mode: ${JSON.stringify(value)} is not merge or replace`);
}

/** `racksmith.v1.Health`: the REST API's operations with the same checks and errors. */
export function healthGrpcServices(service: HealthService, logger: Logger): GrpcServiceModule[] {
  const context = { logger };
  const handlers: HealthHandlers = {
    GetMachineHealth: unary(context, async (request) =>
      toMachineHealthMessage(await service.show(requiredString(request.machineId, "machine_id"))),
    ),
    ListHealthHistory: unary(context, async (request) => {
      const view = await service.history(
        requiredString(request.machineId, "machine_id"),
        request.limit > 0 ? request.limit : undefined,
      );
      return {
        machineId: view.machineId,
        hostId: view.hostId,
        entries: view.entries.map((entry) => ({
          at: timestamp(entry.at),
          hash: entry.hash,
          report: healthReportToProto(entry.report),
        })),
      };
    }),
    AddHealthOverride: unary(context, async (request) => {
      const machineId = requiredString(request.machineId, "machine_id");
      const source = requiredString(request.source, "source");
      const hasTemplate = request.template !== "";
      if (Boolean(request.report) === hasTemplate) {
        throw new InvalidArgumentError("give exactly one of report and template");
      }
      const input: HealthOverrideInput =
        request.report && !hasTemplate
          ? { report: healthReportFromProto({ ...request.report, source }, "report") }
          : { template: request.template };
      const overrideMode = mode(request.mode);
      return toMachineHealthMessage(
        await service.addOverride(machineId, input, {
          source,
          ...(overrideMode ? { mode: overrideMode } : {}),
          ...(request.message !== "" ? { message: request.message } : {}),
          ...(request.triggeredBy !== "" ? { triggeredBy: request.triggeredBy } : {}),
        }),
      );
    }),
    RemoveHealthOverride: unary(context, async (request) =>
      toMachineHealthMessage(
        await service.removeOverride(
          requiredString(request.machineId, "machine_id"),
          requiredString(request.source, "source"),
        ),
      ),
    ),
  };
  return [{ protoFile: PROTO_FILE, serviceName: HEALTH_SERVICE, handlers, limits: HEALTH_LIMITS }];
}

export function toMachineHealthMessage(view: MachineHealthView): MachineHealth {
  return {
    machineId: view.machineId,
    hostId: view.hostId,
    kind: view.kind,
    report: healthReportToProto(view.report),
    overrides: view.overrides.map((o) => ({ source: o.source, mode: o.mode })),
  };
}
