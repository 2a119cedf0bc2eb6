import { Client, credentials, Metadata, type ServiceError, status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type GrpcServiceModule,
  loadRacksmithProto,
  RACKSMITH_SERVICE,
  ROLES,
  type Role,
} from "../api/index.js";
import { DEFAULT_FEATURES, type ServiceFeature } from "../service/index.js";
import { recordingGrpc, type ServiceHarness, startServiceHarness } from "../testing/index.js";
import { GRPC_ACCESS, REST_ACCESS } from "./accessTable.js";

interface RawMethod {
  key: string;
  path: string;
  serialize: (request: object) => Buffer;
}

/*
 * Issue 17, acceptance 1: the authorization table, as a table. Every REST route of /openapi.json and every
 * gRPC method the service serves is called without a token (401 / UNAUTHENTICATED), with each role the
 * table refuses (403 / PERMISSION_DENIED) and with each role it admits (neither). The service refuses to
 * start with a route or method the table lacks, and the table names nothing the service does not serve.
 */
describe("the authorization table", () => {
  let api: ServiceHarness;
  const registered: GrpcServiceModule[] = [];
  const tokens = new Map<Role, string>();
  const restRoutes: Array<{ method: string; route: string; path: string }> = [];
  const grpcMethods: RawMethod[] = [];
  let client: Client;

  beforeAll(async () => {
    api = await startServiceHarness({
      features: DEFAULT_FEATURES.map((feature) => recordingGrpc(feature, registered)),
    });
    for (const role of ROLES) {
      const response = await api.request<{ token: string }>("POST", "/api/v1/auth/tokens", {
        role,
        ...(role === "tenant" ? { tenant: "org-a" } : {}),
        ...(role === "agent" ? { machine: "machine-a" } : {}),
      });
      expect(response.status).toBe(201);
      tokens.set(role, response.json.token);
    }
    const document = (
      await api.request<{ paths: Record<string, Record<string, unknown>> }>("GET", "/openapi.json")
    ).json;
    // The document does not describe itself.
    restRoutes.push({ method: "GET", route: "/openapi.json", path: "/openapi.json" });
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const method of Object.keys(methods)) {
        restRoutes.push({
          method: method.toUpperCase(),
          route: path.replace(/\{([A-Za-z0-9_]+)\}/g, ":$1"),
          path: path.replace(/\{[A-Za-z0-9_]+\}/g, "x"),
        });
      }
    }
    const definition = loadRacksmithProto(registered.map((module) => module.protoFile)).definition;
    for (const serviceName of [RACKSMITH_SERVICE, ...registered.map((module) => module.serviceName)]) {
      const service = definition[serviceName];
      if (!service || "format" in service) throw new Error(`${serviceName} is not a loaded service`);
      for (const [methodName, method] of Object.entries(service)) {
        grpcMethods.push({
          key: `${serviceName}/${methodName}`,
          path: method.path,
          serialize: method.requestSerialize as (request: object) => Buffer,
        });
      }
    }
    client = new Client(api.grpcAddress, credentials.createInsecure());
  });
  afterAll(async () => {
    client?.close();
    await api?.close();
  });

  const rest = (method: string, path: string, role: Role | undefined) =>
    api.request(method, path, method === "GET" ? undefined : {}, {
      authorization: role ? `Bearer ${tokens.get(role)}` : null,
    });

  const grpc = (method: RawMethod, role: Role | undefined) =>
    new Promise<{ code: number; details: string }>((resolve) => {
      const metadata = new Metadata();
      if (role) metadata.set("authorization", `Bearer ${tokens.get(role)}`);
      client.makeUnaryRequest(
        method.path,
        method.serialize,
        (bytes: Buffer) => bytes,
        {},
        metadata,
        { deadline: Date.now() + 30_000 },
        (error: ServiceError | null) =>
          resolve({ code: error ? error.code : status.OK, details: error?.details ?? "" }),
      );
    });

  it("has a rule for exactly the routes and methods the service serves", () => {
    expect(restRoutes.length).toBeGreaterThan(60);
    const served = new Set(restRoutes.map((route) => `${route.method} ${route.route}`));
    expect([...served].filter((key) => !Object.hasOwn(REST_ACCESS, key))).toEqual([]);
    expect(Object.keys(REST_ACCESS).filter((key) => !served.has(key))).toEqual([]);
    const methods = new Set(grpcMethods.map((method) => method.key));
    expect([...methods].filter((key) => !Object.hasOwn(GRPC_ACCESS, key))).toEqual([]);
    expect(Object.keys(GRPC_ACCESS).filter((key) => !methods.has(key))).toEqual([]);
  });

  it("answers every REST route by the table: 401 without a token, 403 for a refused role, neither for an admitted one", async () => {
    const wrong: string[] = [];
    for (const { method, route, path } of restRoutes) {
      const rule = REST_ACCESS[`${method} ${route}`];
      if (!rule) continue;
      const anonymous = (await rest(method, path, undefined)).status;
      if (rule.roles === "public" ? anonymous === 401 || anonymous === 403 : anonymous !== 401) {
        wrong.push(`${method} ${route} without a token: ${anonymous}`);
      }
      for (const role of ROLES) {
        const answered = (await rest(method, path, role)).status;
        const admitted = rule.roles === "public" || rule.roles.includes(role);
        if (admitted ? answered === 401 || answered === 403 : answered !== 403) {
          wrong.push(`${method} ${route} as ${role}: ${answered}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("answers every gRPC method by the table: UNAUTHENTICATED, PERMISSION_DENIED, or neither", async () => {
    const wrong: string[] = [];
    for (const method of grpcMethods) {
      const rule = GRPC_ACCESS[method.key];
      if (!rule) continue;
      const anonymous = (await grpc(method, undefined)).code;
      const refused = (code: number) => code === status.UNAUTHENTICATED || code === status.PERMISSION_DENIED;
      if (rule.roles === "public" ? refused(anonymous) : anonymous !== status.UNAUTHENTICATED) {
        wrong.push(`${method.key} without a token: ${status[anonymous]}`);
      }
      for (const role of ROLES) {
        const answered = (await grpc(method, role)).code;
        // A certificate-only method admits no token, whatever its role (agentMtls.test.ts calls it so).
        const admitted = rule.roles === "public" || (rule.roles.includes(role) && !rule.certificateOnly);
        if (admitted ? refused(answered) : answered !== status.PERMISSION_DENIED) {
          wrong.push(`${method.key} as ${role}: ${status[answered]}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("refuses a feature route the table has no rule for when the service starts", async () => {
    const stray: ServiceFeature = {
      name: "stray",
      setup: async () => ({ rest: (app) => app.get("/api/v1/stray", async () => ({})) }),
    };
    await expect(startServiceHarness({ features: [stray] })).rejects.toThrow(
      "no authorization rule for GET /api/v1/stray: add it to the access table",
    );
  });
});
