import {
  Server,
  type ServerUnaryCall,
  type ServiceDefinition,
  type sendUnaryData,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import type { PackageDefinition } from "@grpc/proto-loader";
import { ReflectionService } from "@grpc/reflection";
import { InvalidArgumentError } from "@racksmith/core";
import { ObjectNotFoundError, UnknownObjectTypeError } from "@racksmith/core/engine";
import { HealthImplementation } from "grpc-health-check";
import type { AccessGate, Caller } from "../access.js";
import type { ApiContext } from "../context.js";
import { answerError } from "./answerError.js";
import { boundedStatusDetails } from "./boundedStatusDetails.js";
import { toObjectStateMessage, toVersionMessage } from "./convert.js";
import type { RacksmithHandlers } from "./generated/racksmith/v1/Racksmith.js";
import { callerOf, type GuardedService, guardService } from "./guardService.js";
import { loadRacksmithProto } from "./loadProto.js";
import { MessageShapes } from "./messageShapes.js";
import { RACKSMITH_LIMITS } from "./racksmithLimits.js";
import { raiseReceiveWindows } from "./receiveWindows.js";
import type { LimitsTable } from "./requestLimits.js";

export const RACKSMITH_SERVICE = "racksmith.v1.Racksmith";

export interface GrpcApi {
  server: Server;
  health: HealthImplementation;
}

export interface GrpcServerOptions {
  /**
   * The agent listener: only the agents' services (no Racksmith core service, no reflection), callers known
   * by the client certificate TLS verified.
   */
  agentListener?: boolean;
  /** Closes a connection that made no call for this long (ms); undefined or 0: never. */
  idleCloseMs?: number;
}

/** A feature's gRPC service: its proto file (under `proto/`), full service name, handlers and request limits. */
export interface GrpcServiceModule {
  protoFile: string;
  serviceName: string;
  handlers: UntypedServiceImplementation;
  /**
   * Every method's request limits (`ServiceLimits<…Handlers>`, next to the service), checked before its
   * handler runs. Absent: every method takes the defaults — for test stubs; a feature's service states them.
   */
  limits?: LimitsTable;
  /** Also served on the agent listener (mTLS) to agents with their machine certificates. */
  agentFacing?: boolean;
}

/**
 * Wraps a promise-returning handler: failures become gRPC statuses through the one error mapping. The
 * handler gets the caller the access gate admitted (for tenant scoping).
 */
export function unary<Req, Res>(
  context: Pick<ApiContext, "logger">,
  run: (request: Req, caller: Caller | undefined) => Promise<Res>,
) {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>): void => {
    run(call.request, callerOf(call)).then(
      (response) => callback(null, response),
      (error: unknown) => answerError(context.logger, callback, error),
    );
  };
}

function requireObject(context: ApiContext, objectType: string, objectId: string): void {
  if (!objectType) throw new InvalidArgumentError("object_type is required");
  if (!objectId) throw new InvalidArgumentError("object_id is required");
  const known = context.objectTypes();
  if (!known.includes(objectType)) throw new UnknownObjectTypeError(objectType, known);
}

/**
 * The gRPC API: the Racksmith service, server reflection and the standard grpc.health.v1 service (both
 * public). Every method of every other service must have a rule at the gate, which admits each call first.
 */
export function createGrpcServer(
  context: ApiContext,
  modules: readonly GrpcServiceModule[],
  gate: AccessGate,
  options: GrpcServerOptions = {},
): GrpcApi {
  const agentListener = options.agentListener === true;
  const proto = loadRacksmithProto(modules.map((module) => module.protoFile));
  const handlers: RacksmithHandlers = {
    Version: unary(context, async () => toVersionMessage(context.version())),
    GetObjectState: unary(context, async (request) => {
      requireObject(context, request.objectType, request.objectId);
      const view = await context.getObjectState(
        request.objectType,
        request.objectId,
        request.historyLimit || 20,
      );
      if (!view) throw new ObjectNotFoundError(request.objectType, request.objectId);
      return toObjectStateMessage(view);
    }),
    ListObjects: unary(context, async (request) => {
      if (!context.objectTypes().includes(request.objectType)) {
        throw new UnknownObjectTypeError(request.objectType, context.objectTypes());
      }
      const limit = Math.min(request.limit || 100, 1000);
      const objects = await context.listObjects(request.objectType, {
        limit,
        ...(request.state ? { state: request.state } : {}),
        ...(request.after ? { after: request.after } : {}),
      });
      return {
        objects: objects.map(toObjectStateMessage),
        nextAfter: objects.length === limit ? (objects.at(-1)?.objectId ?? "") : "",
      };
    }),
    Enqueue: unary(context, async (request) => {
      requireObject(context, request.objectType, request.objectId);
      if (!(await context.getObjectState(request.objectType, request.objectId, 0))) {
        throw new ObjectNotFoundError(request.objectType, request.objectId);
      }
      await context.enqueue(request.objectType, request.objectId);
      return {};
    }),
  };
  const shapes = new MessageShapes(proto.definition);
  const guard = (serviceName: string, serviceHandlers: UntypedServiceImplementation, limits?: LimitsTable) =>
    guardService({
      serviceName,
      definition: serviceDefinition(proto.definition, serviceName),
      handlers: serviceHandlers,
      limits,
      shapes,
      logger: context.logger,
      gate,
      certificateCallers: agentListener,
    });
  const services: GuardedService[] = [
    ...(agentListener ? [] : [guard(RACKSMITH_SERVICE, handlers, RACKSMITH_LIMITS)]),
    ...modules.map((module) => guard(module.serviceName, module.handlers, module.limits)),
  ];
  const server = new Server({
    // grpc-js limits received messages per server: the largest a method accepts; each is held to its own.
    "grpc.max_receive_message_length": Math.max(...services.map((service) => service.maxRequestBytes)),
    interceptors: [boundedStatusDetails],
    ...(options.idleCloseMs ? { "grpc.max_connection_idle_ms": options.idleCloseMs } : {}),
  });
  // Node's 64 KiB HTTP/2 windows make a big request crawl at one window per round trip, starving its connection.
  raiseReceiveWindows(server);
  for (const service of services) server.addService(service.definition, service.handlers);
  if (!agentListener) new ReflectionService(proto.definition).addToServer(server);
  const names = ["", ...(agentListener ? [] : [RACKSMITH_SERVICE]), ...modules.map((m) => m.serviceName)];
  const health = new HealthImplementation(Object.fromEntries(names.map((name) => [name, "NOT_SERVING"])));
  health.addToServer(server);
  return { server, health };
}

/**
 * Stops the gRPC server gracefully: no new calls, calls in flight may finish, but for `graceMs` at most —
 * then they are cancelled, so a hung call never holds the service's stop.
 */
export function shutdownGrpcServer(server: Server, graceMs: number): Promise<void> {
  return new Promise<void>((done) => {
    const force = setTimeout(() => server.forceShutdown(), graceMs);
    force.unref();
    server.tryShutdown(() => {
      clearTimeout(force);
      done();
    });
  });
}

/** `racksmith.v1.Inventory` → the loaded service's definition. */
function serviceDefinition(definition: PackageDefinition, serviceName: string): ServiceDefinition {
  const service = definition[serviceName];
  if (!service || "format" in service) {
    throw new Error(`gRPC service ${serviceName} is not defined by the loaded protos`);
  }
  return service;
}
