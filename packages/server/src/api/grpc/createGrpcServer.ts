import {
  type GrpcObject,
  Metadata,
  Server,
  type ServerUnaryCall,
  type ServiceDefinition,
  type sendUnaryData,
  status,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import { ReflectionService } from "@grpc/reflection";
import { InvalidArgumentError } from "@racksmith/core";
import { ObjectNotFoundError, UnknownObjectTypeError } from "@racksmith/core/engine";
import { HealthImplementation } from "grpc-health-check";
import type { ApiContext } from "../context.js";
import { toGrpcError } from "../errors.js";
import { toObjectStateMessage, toVersionMessage } from "./convert.js";
import type { RacksmithHandlers } from "./generated/racksmith/v1/Racksmith.js";
import { loadRacksmithProto } from "./loadProto.js";

export const RACKSMITH_SERVICE = "racksmith.v1.Racksmith";

export interface GrpcApi {
  server: Server;
  health: HealthImplementation;
}

/** A feature's gRPC service: its proto file (under `proto/`), full service name and handlers. */
export interface GrpcServiceModule {
  protoFile: string;
  serviceName: string;
  handlers: UntypedServiceImplementation;
  /** The largest request message it accepts, when more than grpc-js's default 4 MiB. */
  maxReceiveMessageBytes?: number;
}

/** Wraps a promise-returning handler: failures become gRPC statuses through the one error mapping. */
export function unary<Req, Res>(context: Pick<ApiContext, "logger">, run: (request: Req) => Promise<Res>) {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>): void => {
    run(call.request).then(
      (response) => callback(null, response),
      (error: unknown) => {
        const mapped = toGrpcError(error);
        if (mapped.code === status.INTERNAL)
          context.logger.error({ err: (error as Error)?.message }, "gRPC call failed");
        const metadata = new Metadata();
        metadata.set("racksmith-error-code", mapped.errorCode);
        callback({ code: mapped.code, details: mapped.details, metadata });
      },
    );
  };
}

function requireObject(context: ApiContext, objectType: string, objectId: string): void {
  if (!objectType) throw new InvalidArgumentError("object_type is required");
  if (!objectId) throw new InvalidArgumentError("object_id is required");
  const known = context.objectTypes();
  if (!known.includes(objectType)) throw new UnknownObjectTypeError(objectType, known);
}

/** The gRPC API: the Racksmith service, server reflection and the standard grpc.health.v1 service. */
export function createGrpcServer(context: ApiContext, modules: readonly GrpcServiceModule[] = []): GrpcApi {
  const proto = loadRacksmithProto(modules.map((module) => module.protoFile));
  // grpc-js limits received messages per server, not per method: the largest a module asks for applies.
  const maxReceive = Math.max(0, ...modules.map((module) => module.maxReceiveMessageBytes ?? 0));
  const server = new Server(maxReceive > 0 ? { "grpc.max_receive_message_length": maxReceive } : {});
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
  server.addService(proto.grpc.racksmith.v1.Racksmith.service, handlers);
  for (const module of modules)
    server.addService(serviceDefinition(proto.grpc, module.serviceName), module.handlers);
  new ReflectionService(proto.definition).addToServer(server);
  const health = new HealthImplementation(
    Object.fromEntries(
      ["", RACKSMITH_SERVICE, ...modules.map((m) => m.serviceName)].map((name) => [name, "NOT_SERVING"]),
    ),
  );
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
function serviceDefinition(root: object, serviceName: string): ServiceDefinition {
  const found = serviceName
    .split(".")
    .reduce<unknown>((node, part) => (node as GrpcObject | undefined)?.[part], root);
  const service = (found as { service?: ServiceDefinition } | undefined)?.service;
  if (!service) throw new Error(`gRPC service ${serviceName} is not defined by the loaded protos`);
  return service;
}
