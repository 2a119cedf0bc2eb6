import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "@racksmith/core";
import {
  type FaultDecision,
  type MockupResponse,
  type RequestStatsCounter,
  redfishError,
} from "@racksmith/testkit";
import type { VirtualBmc } from "./virtualBmc.js";

/** What the request handler needs from the fleet. */
export interface ServeContext {
  /** The virtual BMC a request is for. */
  readonly route: (request: IncomingMessage) => VirtualBmc | undefined;
  /** The answer to a request no virtual BMC is for. */
  readonly unknownBmc: (request: IncomingMessage) => MockupResponse;
  readonly counter: RequestStatsCounter;
  /** Aborted when the fleet stops: injected delays end at once. */
  readonly shutdown: AbortSignal;
  readonly logger: Logger;
}

/** Firmware pushes are consumed in memory; this bounds one request. */
const BODY_LIMIT = 256 * 1024 * 1024;
const MALFORMED_BODY = '{"@odata.id": "/redfish/v1", "Name": "truncat';

/** The fleet's HTTP handler: route, inject the BMC's faults (before auth, as a network would), answer. */
export function requestHandler(
  context: ServeContext,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    void serve(context, request, response);
  };
}

async function serve(
  context: ServeContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const method = request.method ?? "GET";
  const path = request.url ?? "/";
  const end = context.counter.begin(method);
  try {
    const bmc = context.route(request);
    if (!bmc) {
      send(response, context.unknownBmc(request), method);
      return;
    }
    const fault = bmc.takeFault(method, path);
    // A request that arrived is carried out even if the client gives up during the delay, as a BMC would.
    const body = fault?.outcome ? undefined : await readBody(request);
    if (fault && !(await waitOut(fault, context.shutdown))) {
      request.socket.destroy();
      return;
    }
    if (fault?.outcome?.kind === "reset") {
      request.socket.destroy();
      return;
    }
    const answer = fault?.outcome
      ? faultAnswer(fault, method, path)
      : await bmc.handle({ method, path, headers: request.headers, body });
    send(response, answer, method);
  } catch (error) {
    context.logger.error({ method, path, err: (error as Error).message }, "fleet request failed");
    if (!response.headersSent && !response.destroyed) {
      send(response, redfishError(500, "GeneralError", [], { message: (error as Error).message }), method);
    }
  } finally {
    end();
  }
}

/** Waits the injected latency; false when the fleet stops meanwhile. */
async function waitOut(fault: FaultDecision, shutdown: AbortSignal): Promise<boolean> {
  if (fault.latencyMs <= 0) return true;
  try {
    await sleep(fault.latencyMs, undefined, { signal: shutdown });
    return true;
  } catch {
    return false;
  }
}

function faultAnswer(fault: FaultDecision, method: string, path: string): MockupResponse {
  if (fault.outcome?.kind === "malformed") {
    return {
      status: 200,
      headers: { "content-type": "application/json", "odata-version": "4.0" },
      body: MALFORMED_BODY,
    };
  }
  const status = fault.outcome?.kind === "status" ? fault.outcome.status : 500;
  return redfishError(status, "GeneralError", [], {
    message: `Injected fault: HTTP ${status} for ${method} ${path}.`,
  });
}

async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw new Error(`request body larger than ${BODY_LIMIT} bytes`);
    chunks.push(chunk as Buffer);
  }
  return size > 0 ? Buffer.concat(chunks) : undefined;
}

function send(response: ServerResponse, answer: MockupResponse, method: string): void {
  const body =
    method === "HEAD" || answer.body === undefined || answer.status === 204
      ? undefined
      : typeof answer.body === "string"
        ? answer.body
        : JSON.stringify(answer.body);
  response.writeHead(answer.status, {
    ...answer.headers,
    ...(body === undefined ? {} : { "content-length": Buffer.byteLength(body) }),
  });
  response.end(body);
}
