import type { Server as HttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { type Logger, silentLogger } from "@racksmith/core";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import type { MockupBehavior } from "./behaviors.js";
import { MockupServerStartError } from "./errors.js";
import { type FaultDecision, FaultInjector, type FaultRule } from "./faults.js";
import { redirectPlainHttp } from "./httpsRedirect.js";
import { MockupService } from "./mockupService.js";
import type { MockupActionRecord } from "./mockupState.js";
import type { MockupTree } from "./mockupTree.js";
import { redfishError } from "./redfishMessages.js";
import { type MockupServerStats, RequestStatsCounter } from "./serverStats.js";
import type { RedfishRule } from "./strict/index.js";
import { createSelfSignedCertificate } from "./tlsCertificate.js";
import type { MockupAuthMode, MockupCredentials, MockupResponse } from "./types.js";

export interface MockupServerOptions {
  /** A mockup folder in any supported layout, or an already opened (shared) tree. */
  readonly root: string | MockupTree;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0: any free port. */
  readonly port?: number;
  /** Serve HTTPS with a self-signed certificate made at start (CN localhost, SAN 127.0.0.1). */
  readonly tls?: boolean;
  readonly auth?: MockupAuthMode;
  readonly credentials?: MockupCredentials;
  readonly faults?: readonly FaultRule[];
  readonly pageSize?: number;
  readonly taskDurationMs?: number;
  readonly behaviors?: readonly MockupBehavior[];
  /** Follow the Redfish specification strictly (default true); see `MockupServiceOptions.strict`. */
  readonly strict?: boolean;
  /** Rules relaxed even in strict mode. */
  readonly lenient?: readonly RedfishRule[];
  readonly logger?: Logger;
}

/** Firmware images are consumed in memory; this bounds one upload. */
const BODY_LIMIT = 512 * 1024 * 1024;
const MALFORMED_BODY = '{"@odata.id": "/redfish/v1", "Name": "truncat';
const METHODS = ["GET", "HEAD", "POST", "PATCH", "PUT", "DELETE", "OPTIONS"];

/**
 * A {@link MockupService} on an HTTP or HTTPS port: fault injection (before auth), request statistics, and the
 * body accepted whatever its type (JSON, multipart and octet-stream firmware pushes).
 */
export class MockupServer {
  readonly service: MockupService;
  readonly url: string;
  readonly port: number;
  /** PEM of the self-signed certificate when serving HTTPS (to trust it explicitly). */
  readonly certificate: string | undefined;
  private readonly faults: FaultInjector;
  private readonly counter: RequestStatsCounter;
  private readonly shutdown: AbortController;
  private readonly app: FastifyInstance;

  private constructor(parts: {
    service: MockupService;
    url: string;
    port: number;
    certificate: string | undefined;
    faults: FaultInjector;
    counter: RequestStatsCounter;
    shutdown: AbortController;
    app: FastifyInstance;
  }) {
    this.service = parts.service;
    this.url = parts.url;
    this.port = parts.port;
    this.certificate = parts.certificate;
    this.faults = parts.faults;
    this.counter = parts.counter;
    this.shutdown = parts.shutdown;
    this.app = parts.app;
  }

  static async start(options: MockupServerOptions): Promise<MockupServer> {
    const service = await MockupService.open(options.root, {
      ...(options.auth ? { auth: options.auth } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
      ...(options.taskDurationMs !== undefined ? { taskDurationMs: options.taskDurationMs } : {}),
      ...(options.behaviors ? { behaviors: options.behaviors } : {}),
      ...(options.strict !== undefined ? { strict: options.strict } : {}),
      ...(options.lenient ? { lenient: options.lenient } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
    });
    const faults = new FaultInjector(options.faults);
    const counter = new RequestStatsCounter();
    const shutdown = new AbortController();
    const logger = options.logger ?? silentLogger;
    const host = options.host ?? "127.0.0.1";
    const certificate = options.tls ? await createSelfSignedCertificate() : undefined;
    const app = createApp(certificate, service);
    const context: ServeContext = { service, faults, counter, shutdown, logger };
    app.route({ method: METHODS, url: "/*", handler: (request, reply) => serve(context, request, reply) });
    // Methods outside that list (PROPFIND, TRACE…) reach the service too, which answers 501 or 405.
    app.setNotFoundHandler((request, reply) => serve(context, request, reply));

    let port: number;
    try {
      await app.listen({ host, port: options.port ?? 0 });
      port = (app.server.address() as AddressInfo).port;
    } catch (error) {
      await app.close().catch(() => undefined);
      throw new MockupServerStartError(`${host}:${options.port ?? 0}`, (error as Error).message, error);
    }
    const scheme = certificate ? "https" : "http";
    return new MockupServer({
      service,
      url: `${scheme}://${urlHost(host)}:${port}`,
      port,
      certificate: certificate?.cert,
      faults,
      counter,
      shutdown,
      app,
    });
  }

  get tree(): MockupTree {
    return this.service.tree;
  }

  get stats(): MockupServerStats {
    return this.counter.snapshot();
  }

  resetStats(): void {
    this.counter.reset();
  }

  addFault(rule: FaultRule): void {
    this.faults.add(rule);
  }

  clearFaults(): void {
    this.faults.clear();
  }

  /** Fault rules that still have uses left. */
  get activeFaults(): FaultRule[] {
    return this.faults.rules;
  }

  expireSessions(): void {
    this.service.expireSessions();
  }

  get actions(): readonly MockupActionRecord[] {
    return this.service.actions;
  }

  /** Closes the port and every connection; injected delays still pending end at once. */
  async stop(): Promise<void> {
    this.shutdown.abort();
    await this.app.close();
  }
}

interface ServeContext {
  readonly service: MockupService;
  readonly faults: FaultInjector;
  readonly counter: RequestStatsCounter;
  readonly shutdown: AbortController;
  readonly logger: Logger;
}

function createApp(
  certificate: { key: string; cert: string } | undefined,
  service: MockupService,
): FastifyInstance {
  const common = {
    logger: false,
    bodyLimit: BODY_LIMIT,
    forceCloseConnections: true,
    exposeHeadRoutes: false,
    routerOptions: { maxParamLength: 8192, ignoreDuplicateSlashes: false },
    // A URL fastify cannot decode still gets a Redfish error body.
    frameworkErrors: (error: Error, _request: FastifyRequest, reply: FastifyReply) => {
      void sendResponse(reply, redfishError(400, "GeneralError", [], { message: error.message }), false);
    },
    // Node's parser refuses a method it does not know before any route runs: answer 501 as a Redfish service.
    clientErrorHandler: (error: Error & { code?: string }, socket: Socket) => {
      const status = error.code === "HPE_INVALID_METHOD" && service.rules.enforces("methods") ? 501 : 400;
      writeRawError(socket, status, error.message);
    },
  } as const;
  // Both variants behave the same for our one route; the instance type only differs by the node server class.
  const app = certificate
    ? (Fastify({
        ...common,
        https: { key: certificate.key, cert: certificate.cert },
      }) as unknown as FastifyInstance)
    : Fastify(common);
  if (certificate) {
    redirectPlainHttp(app.server as unknown as HttpsServer, () => service.rules.enforces("httpsRedirect"));
  }
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: BODY_LIMIT }, (_request, body, done) => {
    done(null, body);
  });
  // Fastify's own failures (body too large, aborted upload) still answer with a Redfish error body.
  app.setErrorHandler((error: { statusCode?: number; message?: string }, _request, reply) => {
    const status = typeof error.statusCode === "number" && error.statusCode >= 400 ? error.statusCode : 500;
    void sendResponse(
      reply,
      redfishError(status, "GeneralError", [], { message: error.message ?? "error" }),
      false,
    );
  });
  return app;
}

async function serve(context: ServeContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const end = context.counter.begin(request.method);
  const started = performance.now();
  try {
    const fault = context.faults.take(request.method, request.url);
    if (fault && !(await applyLatency(fault, context.shutdown.signal))) {
      destroy(request, reply);
      return;
    }
    const response = fault?.outcome ? faultResponse(fault, request, reply) : await answer(context, request);
    if (!response) return;
    await sendResponse(reply, response, request.method === "HEAD");
    context.logger.debug(
      {
        method: request.method,
        path: request.url,
        status: response.status,
        ms: Math.round(performance.now() - started),
      },
      "mockup request",
    );
  } finally {
    end();
  }
}

async function answer(context: ServeContext, request: FastifyRequest): Promise<MockupResponse> {
  const body = Buffer.isBuffer(request.body) && request.body.length > 0 ? request.body : undefined;
  return context.service.handle({
    method: request.method,
    path: request.url,
    headers: request.headers,
    body,
  });
}

/** Waits the injected latency; false when the server is stopping meanwhile. */
async function applyLatency(fault: FaultDecision, signal: AbortSignal): Promise<boolean> {
  if (fault.latencyMs <= 0) return true;
  try {
    await sleep(fault.latencyMs, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** The answer an injected fault gives, or undefined when the connection was dropped instead. */
function faultResponse(
  fault: FaultDecision,
  request: FastifyRequest,
  reply: FastifyReply,
): MockupResponse | undefined {
  switch (fault.outcome?.kind) {
    case "reset":
      destroy(request, reply);
      return undefined;
    case "malformed":
      return {
        status: 200,
        headers: { "content-type": "application/json", "odata-version": "4.0" },
        body: MALFORMED_BODY,
      };
    case "status":
      return redfishError(fault.outcome.status, "GeneralError", [], {
        message: `Injected fault: HTTP ${fault.outcome.status} for ${request.method} ${request.url}.`,
      });
    default:
      return undefined;
  }
}

function destroy(request: FastifyRequest, reply: FastifyReply): void {
  reply.hijack();
  request.raw.socket.destroy();
}

async function sendResponse(reply: FastifyReply, response: MockupResponse, head: boolean): Promise<void> {
  reply.code(response.status);
  for (const [name, value] of Object.entries(response.headers)) reply.header(name, value);
  if (head || response.body === undefined || response.status === 204) {
    await reply.send();
    return;
  }
  await reply.send(typeof response.body === "string" ? response.body : JSON.stringify(response.body));
}

const REASONS: Record<number, string> = { 400: "Bad Request", 501: "Not Implemented" };

/** A Redfish error written straight to a socket whose request the HTTP parser could not read. */
function writeRawError(socket: Socket, status: number, problem: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const message = status === 501 ? "The method is not implemented by this service." : problem;
  const body = JSON.stringify(redfishError(status, "GeneralError", [], { message }).body);
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `OData-Version: 4.0\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}
