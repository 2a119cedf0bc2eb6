import type { FastifyInstance, FastifyRequest, RouteOptions } from "fastify";
import type { AccessGate, Caller, Operation } from "../access.js";
import { operationKey } from "../access.js";
import { excerpt } from "../input/index.js";

declare module "fastify" {
  interface FastifyRequest {
    /** Who calls, as the access gate admitted it (undefined on a public route called without a token). */
    caller: Caller | undefined;
  }
}

/** The table's key for a route: HEAD answers as its GET (fastify adds one per GET). */
function restOperation(method: string, route: string): Operation {
  return { api: "rest", method: method === "HEAD" ? "GET" : method, route };
}

/**
 * Every route asks the gate before anything else runs (before the body is parsed or validated): an
 * unauthenticated caller learns nothing about a request's shape. A route the gate has no rule for is
 * refused when it is registered, so a new route cannot ship unguarded. Mutating calls are reported to the
 * gate as they are answered (the audit log).
 */
export function applyAccessGate(app: FastifyInstance, gate: AccessGate): void {
  app.decorateRequest("caller", undefined);
  app.addHook("onRoute", (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      const operation = restOperation(method, route.url);
      if (!gate.covers(operation)) {
        throw new Error(`no authorization rule for ${operationKey(operation)}: add it to the access table`);
      }
    }
  });
  app.addHook("onRequest", async (request) => {
    const route = request.routeOptions.url;
    if (route === undefined) return; // no such route: the not-found handler answers
    request.caller = await gate.admit(restOperation(request.method, route), {
      authorization: request.headers.authorization,
    });
  });
  if (gate.record) {
    const record = gate.record.bind(gate);
    // onSend, not onResponse: the row is written before the caller has the answer, so an answered call is
    // in the audit log (a crash right after answering loses no row).
    app.addHook("onSend", async (request, reply, payload) => {
      const route = request.routeOptions.url;
      if (route === undefined) return payload;
      const operation = restOperation(request.method, route);
      if (!gate.mutates(operation)) return payload;
      await record({
        caller: request.caller,
        operation,
        target: targetOf(request),
        result: String(reply.statusCode),
        requestId: String(request.id),
      });
      return payload;
    });
  }
}

/** The path without its query: ids in it name the target; bodies are never recorded. */
function targetOf(request: FastifyRequest): string {
  return excerpt(request.url.split("?")[0] ?? "", 300);
}
