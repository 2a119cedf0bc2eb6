import { connect, createServer, type Socket } from "node:net";
import { Client, credentials, Metadata, type ServiceError, status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GRPC_ACCESS } from "../../auth/index.js";
import { DEFAULT_FEATURES } from "../../service/index.js";
import {
  authorizationInterceptor,
  fakeApiContext,
  grpcFailure,
  grpcHealthStatus,
  harnessGate,
  recordingGrpc,
  type ServiceHarness,
  startServiceHarness,
} from "../../testing/index.js";
import { DEFAULT_MAX_ARRAY_ITEMS, DEFAULT_MAX_STRING_LENGTH } from "../input/index.js";
import { createGrpcServer, type GrpcServiceModule, RACKSMITH_SERVICE } from "./createGrpcServer.js";
import { limitPatterns } from "./limitPatterns.js";
import { loadRacksmithProto } from "./loadProto.js";
import { MessageShapes } from "./messageShapes.js";
import { RACKSMITH_LIMITS } from "./racksmithLimits.js";
import { requestCheck } from "./requestCheck.js";
import {
  DEFAULT_LIMITS,
  DEFAULT_MAX_REQUEST_BYTES,
  type LimitsTable,
  type MethodLimits,
} from "./requestLimits.js";

/*
 * The whole service (every default feature, in-memory PGlite) fed what a fuzzer sends: text PostgreSQL
 * cannot hold, strings and lists over their limits, bytes that are no protobuf, a 3 MB id. Every answer is
 * INVALID_ARGUMENT naming the field, quickly, in a short message, and the connection keeps serving.
 */

/** Every call's deadline, under the test's timeout: a hang shows as DEADLINE_EXCEEDED, not a timeout. */
const DEADLINE_MS = 20_000;
/** The deadline of each call on a connection with latency: generous, so only a stalled call misses it. */
const SLOW_DEADLINE_MS = 60_000;
/** A status message that quotes an excerpt, never the input. */
const SHORT_MESSAGE = 200;

interface Answer {
  code: number;
  details: string;
  errorCode: string | undefined;
  value: Buffer | undefined;
}

interface Method {
  serviceName: string;
  methodName: string;
  path: string;
  serialize(request: object): Buffer;
  limits: MethodLimits | undefined;
}

/** `inventory.nics[].mac` → a request with `leaf` there, and the field its error names (`inventory.nics[0].mac`). */
function requestAt(pattern: string, leaf: unknown): { request: object; field: string } {
  const segments = pattern.split(".");
  let value = leaf;
  for (const segment of [...segments].reverse()) {
    const name = segment.replace(/(\[\]|\{\})$/, "");
    if (segment.endsWith("[]")) value = [value];
    else if (segment.endsWith("{}")) value = { k: value };
    value = { [name]: value };
  }
  const field = segments.map((s) => s.replace(/\[\]$/, "[0]").replace(/\{\}$/, ".k")).join(".");
  return { request: value as object, field };
}

describe("the gRPC API under hostile input", () => {
  const registered: GrpcServiceModule[] = [];
  let api: ServiceHarness;
  let client: Client;
  let shapes: MessageShapes;
  const methods = new Map<string, Method>();

  /** One raw unary call on `on`'s connection: `request` is an object to encode, or bytes sent as they are. */
  const sendOn = (on: Client, path: string, request: object | Buffer, deadlineMs = DEADLINE_MS) =>
    new Promise<Answer>((resolve) => {
      const serialize = methods.get(path)?.serialize;
      if (!serialize) throw new Error(`no method ${path}`);
      const encode = (r: object | Buffer): Buffer => (Buffer.isBuffer(r) ? r : serialize(r));
      on.makeUnaryRequest<object | Buffer, Buffer>(
        path,
        encode,
        (bytes) => bytes,
        request,
        new Metadata(),
        { deadline: Date.now() + deadlineMs },
        (error: ServiceError | null, value?: Buffer) =>
          resolve({
            code: error ? error.code : status.OK,
            details: error?.details ?? "",
            errorCode: error?.metadata.get("racksmith-error-code")[0]?.toString(),
            value,
          }),
      );
    });
  /** One raw unary call on the shared connection. */
  const send = (path: string, request: object | Buffer) => sendOn(client, path, request);
  const call = (serviceName: string, methodName: string, request: object | Buffer) =>
    send(`/${serviceName}/${methodName}`, request);

  beforeAll(async () => {
    api = await startServiceHarness({
      features: DEFAULT_FEATURES.map((feature) => recordingGrpc(feature, registered)),
    });
    client = new Client(api.grpcAddress, credentials.createInsecure(), {
      interceptors: [authorizationInterceptor(`Bearer ${api.adminToken}`)],
    });
    const definition = loadRacksmithProto(registered.map((module) => module.protoFile)).definition;
    shapes = new MessageShapes(definition);
    const services = [
      { serviceName: RACKSMITH_SERVICE, limits: RACKSMITH_LIMITS as LimitsTable | undefined },
      ...registered.map((module) => ({ serviceName: module.serviceName, limits: module.limits })),
    ];
    for (const { serviceName, limits } of services) {
      const service = definition[serviceName];
      if (!service || "format" in service) throw new Error(`${serviceName} is not a loaded service`);
      for (const [methodName, method] of Object.entries(service)) {
        // Only a machine certificate reaches these (the gate answers a token first): auth/agentMtls.test.ts.
        if (GRPC_ACCESS[`${serviceName}/${methodName}`]?.certificateOnly) continue;
        methods.set(method.path, {
          serviceName,
          methodName,
          path: method.path,
          serialize: method.requestSerialize as (request: object) => Buffer,
          limits: limits?.[methodName],
        });
      }
    }
  });
  afterAll(async () => {
    client?.close();
    await api?.close();
  });

  describe("text PostgreSQL cannot store", () => {
    it("answers a NUL byte in objectId INVALID_ARGUMENT naming the field", async () => {
      const answer = await call(RACKSMITH_SERVICE, "GetObjectState", {
        objectType: "managed-host",
        objectId: "host\u0000-1",
      });
      expect(answer).toMatchObject({
        code: status.INVALID_ARGUMENT,
        details: "objectId contains a NUL byte",
        errorCode: "invalid_argument",
      });
    });

    it("answers a NUL byte in a machine id INVALID_ARGUMENT naming the field", async () => {
      const answer = await call("racksmith.v1.Machines", "GetMachine", { id: "\u0000" });
      expect(answer).toMatchObject({ code: status.INVALID_ARGUMENT, details: "id contains a NUL byte" });
    });

    it("names a NUL byte deep in a request by its path: nested messages, list items, map keys", async () => {
      const nic = await call("racksmith.v1.HostAgent", "DiscoverMachine", {
        inventory: { serial: "s-1", nics: [{ mac: "aa" }, { mac: "b\u0000" }] },
      });
      expect(nic).toMatchObject({
        code: status.INVALID_ARGUMENT,
        details: "inventory.nics[1].mac contains a NUL byte",
      });
      const label = await call("racksmith.v1.Inventory", "AddExpectedMachine", {
        machine: { bmcMac: "aa:bb:cc:dd:ee:ff", chassisSerial: "c-1", labels: { "ra\u0000ck": "r1" } },
      });
      expect(label).toMatchObject({
        code: status.INVALID_ARGUMENT,
        details: "machine.labels has a key that contains a NUL byte",
      });
    });

    it("finds a lone surrogate in a decoded request and names the field", () => {
      // Over the wire a surrogate cannot arrive (Node decodes invalid UTF-8 as U+FFFD); decoded requests can.
      const check = requestCheck(shapes.requestOf(RACKSMITH_SERVICE, "Enqueue"), DEFAULT_LIMITS);
      const problem = check({ objectType: "managed-host", objectId: "a\uD800b" });
      expect(problem?.message).toBe("objectId contains a lone UTF-16 surrogate (U+D800) at index 1");
      expect(problem?.code).toBe("invalid_argument");
      expect(check({ objectType: "managed-host", objectId: "a\uD83D\uDE00b" })).toBeUndefined();
    });

    it("answers a surrogate encoded on the wire as the U+FFFD it decodes to, never INTERNAL", async () => {
      // GetMachineRequest { id (1) = ED A0 80 }: CESU-8 for U+D800, what a careless encoder sends.
      const answer = await call(
        "racksmith.v1.Machines",
        "GetMachine",
        Buffer.from([0x0a, 3, 0xed, 0xa0, 0x80]),
      );
      expect(answer.code).toBe(status.NOT_FOUND);
    });
  });

  describe("limits", () => {
    it("answers an over-long string INVALID_ARGUMENT naming the field and the limit, in a short message", async () => {
      const answer = await call("racksmith.v1.Machines", "GetMachine", { id: "x".repeat(100_000) });
      expect(answer).toMatchObject({ code: status.INVALID_ARGUMENT, errorCode: "invalid_argument" });
      expect(answer.details).toMatch(
        new RegExp(
          `^id is longer than the limit of ${DEFAULT_MAX_STRING_LENGTH} characters: x+… \\(100000 characters\\)$`,
        ),
      );
      expect(answer.details.length).toBeLessThan(SHORT_MESSAGE);
    });

    it("never quotes a password, not even an excerpt", async () => {
      const password = `hunter2-${"p".repeat(DEFAULT_MAX_STRING_LENGTH)}`;
      const answer = await call("racksmith.v1.Inventory", "AddExpectedMachine", {
        machine: { bmcMac: "aa:bb:cc:dd:ee:ff", chassisSerial: "c-1", factoryPassword: password },
      });
      expect(answer).toMatchObject({
        code: status.INVALID_ARGUMENT,
        details: `machine.factoryPassword is longer than the limit of ${DEFAULT_MAX_STRING_LENGTH} characters (${password.length} characters)`,
      });
    });

    it("answers too many items INVALID_ARGUMENT naming the list and the limit", async () => {
      const answer = await call("racksmith.v1.HostAgent", "ValidationCompleted", {
        machineId: "m-1",
        context: "discovery",
        results: Array.from({ length: DEFAULT_MAX_ARRAY_ITEMS + 1 }, () => ({ name: "t" })),
      });
      expect(answer).toMatchObject({
        code: status.INVALID_ARGUMENT,
        details: `results has ${DEFAULT_MAX_ARRAY_ITEMS + 1} items, over the limit of ${DEFAULT_MAX_ARRAY_ITEMS}`,
      });
    });

    it("lets a field its method declares larger carry more than the default", async () => {
      const message = "cleanup output ".repeat(1_000);
      const answer = await call("racksmith.v1.HostAgent", "CleanupCompleted", {
        machineId: "no-such-machine",
        success: false,
        message,
      });
      // Past the limits: the handler ran and did not find the machine.
      expect(message.length).toBeGreaterThan(DEFAULT_MAX_STRING_LENGTH);
      expect(answer.code).toBe(status.NOT_FOUND);
    });

    it("answers a message over its method's byte limit RESOURCE_EXHAUSTED, though the server takes larger", async () => {
      const answer = await call("racksmith.v1.Machines", "GetMachine", {
        id: "x".repeat(DEFAULT_MAX_REQUEST_BYTES + 1),
      });
      expect(answer).toMatchObject({ code: status.RESOURCE_EXHAUSTED, errorCode: "request_too_large" });
      expect(answer.details).toContain(
        `over the limit of ${DEFAULT_MAX_REQUEST_BYTES} bytes of racksmith.v1.Machines/GetMachine`,
      );
    });
  });

  it("answers bytes that are no protobuf INVALID_ARGUMENT, for every method of every service", async () => {
    expect(methods.size).toBeGreaterThan(40);
    for (const method of methods.values()) {
      const answer = await send(method.path, Buffer.from([0xff, 0xff, 0xff]));
      expect({ path: method.path, ...answer }).toMatchObject({
        path: method.path,
        code: status.INVALID_ARGUMENT,
        errorCode: "invalid_argument",
        details: expect.stringMatching(/^request is not a valid racksmith\.v1\.\w+ message \(.+\)$/),
      });
    }
  });

  it("answers a 3 MB id at once, and other calls on the same connection go on", async () => {
    const [big, normal] = await Promise.all([
      call("racksmith.v1.Machines", "GetMachine", { id: "m".repeat(3_000_000) }),
      call("racksmith.v1.Machines", "ListMachines", {}),
    ]);
    expect(big).toMatchObject({ code: status.INVALID_ARGUMENT, errorCode: "invalid_argument" });
    expect(big.details.length).toBeLessThan(SHORT_MESSAGE);
    expect(normal.code).toBe(status.OK);
    // The connection itself survived the big answer.
    expect((await call(RACKSMITH_SERVICE, "Version", {})).code).toBe(status.OK);
  });

  it("answers concurrent 5 MB and 1 MB calls on one slow connection, every one", async () => {
    // Every byte from the server reaches the client 250 ms late, its WINDOW_UPDATEs too: a client far away, or
    // one round trip of busy event loops (the chaos fuzzer's 5 MB calls hung so, sharing one process). With
    // Node's 64 KiB HTTP/2 windows these 24 MB crawl at 64 KiB per round trip, ~90 s; each call gets 60 s.
    const proxy = await delayingProxy(api.grpcAddress, 250);
    const slow = new Client(proxy.address, credentials.createInsecure(), {
      interceptors: [authorizationInterceptor(`Bearer ${api.adminToken}`)],
    });
    try {
      const fiveMb = Buffer.alloc(5 * 1024 * 1024, 1);
      const calls = [
        ...["/racksmith.v1.Machines/GetMachine", "/racksmith.v1.Inventory/GetExpectedMachine"].flatMap(
          (path) =>
            [1, 2].map(() => ({ path, request: fiveMb as object | Buffer, code: status.RESOURCE_EXHAUSTED })),
        ),
        ...["a", "b", "c", "d"].map((id) => ({
          path: "/racksmith.v1.Machines/GetMachine",
          request: { id: id.repeat(1024 * 1024) },
          code: status.INVALID_ARGUMENT,
        })),
      ];
      const answers = await Promise.all(
        calls.map(async ({ path, request }) => {
          const { code, errorCode } = await sendOn(slow, path, request, SLOW_DEADLINE_MS);
          return { path, code, errorCode };
        }),
      );
      expect(answers).toEqual(
        calls.map(({ path, code }) => ({
          path,
          code,
          errorCode: code === status.RESOURCE_EXHAUSTED ? "request_too_large" : "invalid_argument",
        })),
      );
    } finally {
      slow.close();
      await proxy.close();
    }
  }, 90_000);

  it("answers a message that would quote half a surrogate pair with U+FFFD in its place, and lives on", async () => {
    // V8 cuts the JSON it quotes in a SyntaxError after a fixed number of code units: here inside a 𝕏.
    const answer = await call("racksmith.v1.Skus", "CreateSku", { documentJson: `x${"𝕏".repeat(10)}` });
    expect(answer.code).toBe(status.INVALID_ARGUMENT);
    expect(answer.details).toMatch(/^document_json is not JSON: .*\uFFFD/);
    expect(await grpcHealthStatus(api.grpcAddress, "")).toBe("SERVING");
  });

  it("cuts the status message of any service, ours or not, so the connection survives it", async () => {
    // grpc-health-check echoes the service name it does not know into its NOT_FOUND message.
    const failure = await grpcFailure(grpcHealthStatus(api.grpcAddress, "s".repeat(100_000)));
    expect(failure.code).toBe(status.NOT_FOUND);
    expect(failure.details.length).toBeLessThanOrEqual(1_100);
    expect(await grpcHealthStatus(api.grpcAddress, "")).toBe("SERVING");
  });

  describe("the limits tables", () => {
    it("give every method of every registered service its limits, the defaults written out", () => {
      const services = new Set([...methods.values()].map((m) => m.serviceName));
      expect(services).toEqual(
        new Set([
          RACKSMITH_SERVICE,
          "racksmith.v1.Inventory",
          "racksmith.v1.SiteExplorer",
          "racksmith.v1.Machines",
          "racksmith.v1.DpuAgent",
          "racksmith.v1.HostAgent",
          "racksmith.v1.Instances",
          "racksmith.v1.Health",
          "racksmith.v1.Lifecycle",
          "racksmith.v1.Skus",
          "racksmith.v1.MachineValidation",
          "racksmith.v1.InfiniBand",
          "racksmith.v1.NvLink",
        ]),
      );
      const missing = [...methods.values()].filter((m) => m.limits === undefined).map((m) => m.path);
      expect(missing).toEqual([]);
    });

    it("hold every string and list of every request to its limit, naming the field", async () => {
      let checked = 0;
      for (const method of methods.values()) {
        const patterns = limitPatterns(shapes.requestOf(method.serviceName, method.methodName));
        for (const pattern of patterns.strings) {
          const limit = method.limits?.maxLength?.[pattern] ?? DEFAULT_MAX_STRING_LENGTH;
          const { request, field } = requestAt(pattern, "x".repeat(limit + 1));
          const answer = await send(method.path, request);
          // A secret is never quoted; anything else by a 40-character excerpt.
          const shown = /password|secret|token/i.test(pattern)
            ? ` \\(${limit + 1} characters\\)$`
            : ": x{40}…";
          expect({ path: method.path, code: answer.code, details: answer.details }).toEqual({
            path: method.path,
            code: status.INVALID_ARGUMENT,
            details: expect.stringMatching(
              new RegExp(`^${escapeRegExp(field)} is longer than the limit of ${limit} characters${shown}`),
            ),
          });
          checked++;
        }
        for (const pattern of patterns.lists) {
          const limit = method.limits?.maxItems?.[pattern] ?? DEFAULT_MAX_ARRAY_ITEMS;
          const isMap = patterns.strings.has(`${pattern}{}`) && !patterns.strings.has(`${pattern}[]`);
          const item = patterns.strings.has(`${pattern}[]`) ? "" : {};
          const items = isMap
            ? Object.fromEntries(Array.from({ length: limit + 1 }, (_, i) => [`k${i}`, "v"]))
            : Array.from({ length: limit + 1 }, () => item);
          const { request, field } = requestAt(pattern, items);
          // A list at the root encodes as its items' encodings end to end: cheap for a batch of 500,000.
          const one = method.serialize({ [pattern]: [item] });
          const atRoot = !isMap && !pattern.includes(".");
          const answer = await send(
            method.path,
            atRoot ? Buffer.alloc(one.length * (limit + 1), one) : request,
          );
          expect({ path: method.path, code: answer.code, details: answer.details }).toEqual({
            path: method.path,
            code: status.INVALID_ARGUMENT,
            details: `${field} has ${limit + 1} items, over the limit of ${limit}`,
          });
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(100);
    }, 120_000);

    it("refuse to start a server whose table misses a method or names a field its request lacks", () => {
      const lifecycle = (limits: LimitsTable): GrpcServiceModule => ({
        protoFile: "racksmith/v1/lifecycle.proto",
        serviceName: "racksmith.v1.Lifecycle",
        handlers: {},
        limits,
      });
      expect(() => createGrpcServer(fakeApiContext(), [lifecycle({})], harnessGate())).toThrow(
        "the limits table of racksmith.v1.Lifecycle has no entry for ForceDeleteMachine",
      );
      expect(() =>
        createGrpcServer(
          fakeApiContext(),
          [lifecycle({ ForceDeleteMachine: { maxLength: { machineId: 64 } } })],
          harnessGate(),
        ),
      ).toThrow("maxLength names machineId, not a string field of racksmith.v1.ForceDeleteMachineRequest");
      expect(() =>
        createGrpcServer(
          fakeApiContext(),
          [lifecycle({ ForceDeleteMachine: DEFAULT_LIMITS, Forget: DEFAULT_LIMITS })],
          harnessGate(),
        ),
      ).toThrow("limits of racksmith.v1.Lifecycle name no method Forget");
    });
  });
});

/**
 * A TCP proxy to `target` holding every byte from the server `delayMs` before passing it to the client, in
 * order: a connection with that much latency. Bytes from the client pass at once.
 */
async function delayingProxy(
  target: string,
  delayMs: number,
): Promise<{ address: string; close(): Promise<void> }> {
  const [host = "", port = ""] = target.split(/:(?=\d+$)/);
  const sockets = new Set<Socket>();
  const proxy = createServer((down) => {
    const up = connect(Number(port), host);
    for (const socket of [down, up]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    }
    down.pipe(up);
    up.on("data", (chunk: Buffer) => setTimeout(() => down.destroyed || down.write(chunk), delayMs));
    up.on("close", () => setTimeout(() => down.destroy(), delayMs));
    up.on("error", () => down.destroy());
    down.on("close", () => up.destroy());
    down.on("error", () => up.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const address = proxy.address();
  if (!address || typeof address === "string") throw new Error("the proxy has no TCP address");
  return {
    address: `127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
