import {
  type handleUnaryCall,
  type MethodDefinition,
  type ServiceDefinition,
  type ServiceError,
  status,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import { InvalidArgumentError, type Logger, RacksmithError } from "@racksmith/core";
import type { AccessGate, CallCredentials, Caller, Operation } from "../access.js";
import { excerpt } from "../input/index.js";
import { requestIdOf } from "../requestId.js";
import { answerError } from "./answerError.js";
import { limitsProblem } from "./limitPatterns.js";
import type { MessageShapes } from "./messageShapes.js";
import { type RequestCheck, requestCheck } from "./requestCheck.js";
import { DEFAULT_LIMITS, DEFAULT_MAX_REQUEST_BYTES, type LimitsTable } from "./requestLimits.js";

/** How much of the decoder's reason a malformed request's error quotes. */
const DECODE_REASON_LENGTH = 80;

/**
 * A request refused while it was decoded. grpc-js answers any decoding failure INTERNAL (a thrown error's
 * code is ignored), so the decoder returns this instead and the handler's wrapper answers its error.
 */
class RejectedRequest {
  constructor(readonly error: RacksmithError) {}
}

export interface ServiceToGuard {
  /** `racksmith.v1.Machines` */
  serviceName: string;
  definition: ServiceDefinition;
  handlers: UntypedServiceImplementation;
  /** Method → limits; absent: every method takes the defaults (a test's stub service). */
  limits: LimitsTable | undefined;
  shapes: MessageShapes;
  logger: Logger;
  gate: AccessGate;
  /** Callers prove themselves by the client certificate TLS verified (the agent listener). */
  certificateCallers?: boolean;
}

export interface GuardedService {
  definition: ServiceDefinition;
  handlers: UntypedServiceImplementation;
  /** The largest request any of its methods accepts. */
  maxRequestBytes: number;
}

/**
 * The service with every request checked before its handler runs: the message's size, that it decodes,
 * then every string and list against the method's limits and for text PostgreSQL can store. A refused
 * request is answered INVALID_ARGUMENT naming the field (RESOURCE_EXHAUSTED when over its byte limit).
 * Throws when the limits table misses a method, names one the service lacks, or names no field of it.
 */
export function guardService(service: ServiceToGuard): GuardedService {
  const { serviceName, definition, handlers, limits } = service;
  for (const name of Object.keys(limits ?? {})) {
    if (!Object.hasOwn(definition, name)) throw new Error(`limits of ${serviceName} name no method ${name}`);
  }
  const guarded: Record<string, MethodDefinition<unknown, unknown>> = {};
  const guardedHandlers: UntypedServiceImplementation = {};
  let maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
  for (const [name, method] of Object.entries(definition)) {
    const where = `${serviceName}/${name}`;
    if (method.requestStream || method.responseStream)
      throw new Error(`${where} streams: only unary calls are guarded`);
    const methodLimits = limits ? (Object.hasOwn(limits, name) ? limits[name] : undefined) : DEFAULT_LIMITS;
    if (!methodLimits) throw new Error(`the limits table of ${serviceName} has no entry for ${name}`);
    const shape = service.shapes.requestOf(serviceName, name);
    const problem = limitsProblem(shape, methodLimits);
    if (problem) throw new Error(`limits of ${where}: ${problem}`);
    const check = requestCheck(shape, methodLimits);
    const maxBytes = methodLimits.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
    maxRequestBytes = Math.max(maxRequestBytes, maxBytes);
    guarded[name] = {
      ...method,
      requestDeserialize: checkedDeserialize(
        method.requestDeserialize,
        check,
        maxBytes,
        where,
        shape.fullName,
      ),
    };
    const operation: Operation = { api: "grpc", service: serviceName, method: name };
    if (!service.gate.covers(operation)) {
      throw new Error(`no authorization rule for ${where}: add it to the access table`);
    }
    const handler = handlers[name] ?? (method.originalName ? handlers[method.originalName] : undefined);
    // Without a handler grpc-js answers UNIMPLEMENTED itself.
    if (handler)
      guardedHandlers[name] = guardHandler(
        handler as handleUnaryCall<unknown, unknown>,
        handlers,
        service.logger,
        service.gate,
        operation,
        service.certificateCallers === true,
      );
  }
  return { definition: guarded, handlers: guardedHandlers, maxRequestBytes };
}

/** The method's decoder, returning a `RejectedRequest` for a message too large, malformed or over its limits. */
function checkedDeserialize(
  deserialize: (bytes: Buffer) => unknown,
  check: RequestCheck,
  maxBytes: number,
  where: string,
  messageType: string,
): (bytes: Buffer) => unknown {
  return (bytes) => {
    if (bytes.length > maxBytes) {
      return new RejectedRequest(
        new RacksmithError(
          "request_too_large",
          "RESOURCE_EXHAUSTED",
          `request is ${bytes.length} bytes, over the limit of ${maxBytes} bytes of ${where}`,
          { details: { limitBytes: maxBytes } },
        ),
      );
    }
    let request: unknown;
    try {
      request = deserialize(bytes);
    } catch (error) {
      const reason = excerpt(error instanceof Error ? error.message : String(error), DECODE_REASON_LENGTH);
      return new RejectedRequest(
        new InvalidArgumentError(`request is not a valid ${messageType} message (${reason})`),
      );
    }
    const invalid = check(request);
    return invalid ? new RejectedRequest(invalid) : request;
  };
}

const callers = new WeakMap<object, Caller>();

/** Who makes a gRPC call, as the access gate admitted it (undefined: a public method without a token). */
export function callerOf(call: object): Caller | undefined {
  return callers.get(call);
}

/**
 * The gate first (an unauthenticated caller learns nothing of the request's shape), then a request the
 * decoder refused, then the handler. A mutating call is reported to the gate when it is answered.
 */
function guardHandler(
  handler: handleUnaryCall<unknown, unknown>,
  handlers: UntypedServiceImplementation,
  logger: Logger,
  gate: AccessGate,
  operation: Operation,
  certificateCallers: boolean,
): handleUnaryCall<unknown, unknown> {
  const record = gate.record && gate.mutates(operation) ? gate.record.bind(gate) : undefined;
  return (call, answer) => {
    const authorization = call.metadata.get("authorization")[0];
    let caller: Caller | undefined;
    const callback: typeof answer = record
      ? (error, value, trailer, flags) => {
          // The row is written before the answer goes out: an answered call is in the audit log.
          void record({
            caller,
            operation,
            target: call.request instanceof RejectedRequest ? "" : targetOf(call.request),
            result: status[(error as Partial<ServiceError> | null)?.code ?? status.OK] ?? "UNKNOWN",
            requestId: requestIdOf(call.metadata.get("x-request-id")[0]),
          }).then(() => answer(error, value, trailer, flags));
        }
      : answer;
    const peer = certificateCallers ? call.getAuthContext()?.sslPeerCertificate : undefined;
    const credentials: CallCredentials = {
      authorization: typeof authorization === "string" ? authorization : undefined,
      machine: machineOf(call.request),
      ...(certificateCallers
        ? { verifiedPeer: { subjectAltName: peer?.subjectaltname, validTo: peer?.valid_to } }
        : {}),
    };
    gate.admit(operation, credentials).then(
      (admitted) => {
        caller = admitted;
        if (admitted) callers.set(call, admitted);
        if (call.request instanceof RejectedRequest) answerError(logger, callback, call.request.error);
        else handler.call(handlers, call, callback);
      },
      (error: unknown) => answerError(logger, callback, error),
    );
  };
}

/** The machine an agent's request is about: its `machineId` or `dpuId`. */
function machineOf(request: unknown): string | undefined {
  if (typeof request !== "object" || request === null) return undefined;
  const { machineId, dpuId } = request as { machineId?: unknown; dpuId?: unknown };
  const machine = machineId ?? dpuId;
  return typeof machine === "string" ? machine : undefined;
}

/** The request's id-like fields (`machine_id=…`), what the audit log names as the target; never a body. */
function targetOf(request: unknown): string {
  if (typeof request !== "object" || request === null) return "";
  const parts: string[] = [];
  for (const [key, value] of Object.entries(request)) {
    if (typeof value === "string" && value !== "" && /(^id$|Id$|^name$|Mac$|^address$)/.test(key)) {
      parts.push(`${key}=${excerpt(value, 80)}`);
    }
  }
  return parts.join(" ");
}
