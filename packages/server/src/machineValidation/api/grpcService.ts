import type { Logger } from "@racksmith/core";
import { InvalidArgumentError } from "@racksmith/core";
import { timestamp } from "../../api/grpc/convert.js";
import type { MachineValidationHandlers } from "../../api/grpc/generated/racksmith/v1/MachineValidation.js";
import type { ValidationRun } from "../../api/grpc/generated/racksmith/v1/ValidationRun.js";
import type { ValidationTest } from "../../api/grpc/generated/racksmith/v1/ValidationTest.js";
import { type GrpcServiceModule, requiredString, unary } from "../../api/index.js";
import type { MachineValidationService, ValidationRunView } from "../service.js";
import type { CatalogueTest } from "../store.js";
import { MACHINE_VALIDATION_LIMITS } from "./grpcLimits.js";

export const MACHINE_VALIDATION_SERVICE = "racksmith.v1.MachineValidation";
const PROTO_FILE = "racksmith/v1/machine_validation.proto";

/** A JSON object field of a request; the error names the field. */
function jsonObject(text: string | undefined, field: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(requiredString(text, field));
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new InvalidArgumentError(`${field} is not JSON: ${error.message}`, { details: { field } });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(`${field} must be a JSON object`, { details: { field } });
  }
  return value as Record<string, unknown>;
}

/** `racksmith.v1.MachineValidation`: the REST API's operations with the same checks and errors. */
export function machineValidationGrpcServices(
  service: MachineValidationService,
  logger: Logger,
): GrpcServiceModule[] {
  const context = { logger };
  const testId = (request: { id?: string }) => requiredString(request.id, "id");
  const handlers: MachineValidationHandlers = {
    ListValidationTests: unary(context, async () => ({ tests: (await service.tests()).map(toTest) })),
    AddValidationTest: unary(context, async (request) =>
      toTest(await service.add(jsonObject(request.testJson, "test_json"))),
    ),
    UpdateValidationTest: unary(context, async (request) =>
      toTest(await service.update(testId(request), jsonObject(request.changesJson, "changes_json"))),
    ),
    EnableValidationTest: unary(context, async (request) =>
      toTest(await service.setEnabled(testId(request), true)),
    ),
    DisableValidationTest: unary(context, async (request) =>
      toTest(await service.setEnabled(testId(request), false)),
    ),
    VerifyValidationTest: unary(context, async (request) => toTest(await service.verify(testId(request)))),
    StartValidationRun: unary(context, async (request) =>
      toRun(await service.runOnDemand(requiredString(request.machineId, "machine_id"), request.tests ?? [])),
    ),
    ListValidationRuns: unary(context, async (request) => ({
      runs: (await service.runs(requiredString(request.machineId, "machine_id"))).map(toRun),
    })),
    GetValidationRun: unary(context, async (request) => toRun(await service.run(testId(request)))),
  };
  return [
    {
      protoFile: PROTO_FILE,
      serviceName: MACHINE_VALIDATION_SERVICE,
      handlers,
      limits: MACHINE_VALIDATION_LIMITS,
    },
  ];
}

const at = (date: Date) => timestamp(date.toISOString());

function toTest(test: CatalogueTest): ValidationTest {
  return { ...test, timeoutMs: String(test.timeoutMs), updatedAt: at(test.updatedAt) };
}

function toRun(run: ValidationRunView): ValidationRun {
  return {
    ...run,
    ...(run.passed === null ? { passed: undefined } : { passed: run.passed }),
    createdAt: at(run.createdAt),
    ...(run.completedAt ? { completedAt: at(run.completedAt) } : { completedAt: undefined }),
    results: run.results.map((result) => ({
      ...result,
      ...(result.exitCode === null ? { exitCode: undefined } : { exitCode: result.exitCode }),
      startedAt: at(result.startedAt),
      endedAt: at(result.endedAt),
    })),
  };
}
