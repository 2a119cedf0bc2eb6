import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawHttp, type ServiceHarness, startServiceHarness } from "../../testing/index.js";
import type { ApiErrorBody } from "../errors.js";
import { DEFAULT_MAX_STRING_LENGTH } from "../input/index.js";

type JsonSchema = Record<string, unknown>;
type Operation = {
  parameters?: Array<{ name: string; in: string; schema: JsonSchema }>;
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
};
type OpenApi = { paths: Record<string, Record<string, Operation>> };

/** POST and PUT routes that take no body: every other one must document its body. */
const BODYLESS = new Set([
  "post /api/v1/objects/{objectType}/{objectId}/enqueue",
  "post /api/v1/site-explorer/endpoints/{address}/re-explore",
  "post /api/v1/machines/{id}/force-delete",
  "post /api/v1/machines/{id}/sku/verify",
  "post /api/v1/validation/tests/{id}/enable",
  "post /api/v1/validation/tests/{id}/disable",
  "post /api/v1/validation/tests/{id}/verify",
  "post /api/v1/auth/tokens/{id}/revoke",
]);
/** Bodies that may be left out (their schema allows null). */
const OPTIONAL_BODIES = new Set([
  "post /api/v1/site-explorer/endpoints/{address}/explore",
  "post /api/v1/instances/{id}/release",
  "post /api/v1/machines/{id}/validation/runs",
]);
const MEGABYTE = 1024 * 1024;

/** Every subschema of `schema` (properties, items, branches, maps), `schema` first. */
function* subschemas(schema: unknown, at: string): Generator<[string, JsonSchema]> {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return;
  const object = schema as JsonSchema;
  yield [at, object];
  for (const [keyword, value] of Object.entries(object)) {
    if (["properties", "patternProperties"].includes(keyword) && value && typeof value === "object") {
      for (const [name, sub] of Object.entries(value)) yield* subschemas(sub, `${at}.${name}`);
    } else if (["anyOf", "oneOf", "allOf"].includes(keyword) && Array.isArray(value)) {
      for (const [index, sub] of value.entries()) yield* subschemas(sub, `${at}(${keyword}[${index}])`);
    } else if (["items", "additionalProperties", "propertyNames"].includes(keyword)) {
      yield* subschemas(value, `${at}[${keyword}]`);
    }
  }
}

function typesOf(schema: JsonSchema): unknown[] {
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

describe("the REST API against hostile input (whole service, in-memory database)", () => {
  let api: ServiceHarness;
  let document: OpenApi;
  const operations: Array<[string, Operation]> = [];

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "racksmith-hostile-input-"));
    api = await startServiceHarness({
      config: { inventory: { dhcp: { underlayPool: "10.100.0.0/24" } } },
      configFile: join(dir, "racksmith.yaml"),
    });
    document = (await api.request<OpenApi>("GET", "/openapi.json")).json;
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods))
        operations.push([`${method} ${path}`, operation]);
    }
  });
  afterAll(() => api?.close());

  const failure = async (method: string, path: string, body?: unknown) => {
    const response = await api.request<ApiErrorBody>(method, path, body);
    return { status: response.status, error: response.json?.error, length: response.text.length };
  };

  it("answers a NUL byte in any path parameter of any route with 400 naming it (params.<name>)", async () => {
    let checked = 0;
    for (const [key, operation] of operations) {
      const [method = "", template = ""] = key.split(" ");
      const pathParameters = (operation.parameters ?? []).filter((p) => p.in === "path");
      for (const parameter of pathParameters) {
        const path = template.replace(/\{(\w+)\}/g, (_, name: string) =>
          name === parameter.name ? "a%00b" : name === "objectType" ? "managed-host" : "x",
        );
        const { status, error } = await failure(method.toUpperCase(), path);
        expect({ key, status, error }).toEqual({
          key,
          status: 400,
          error: {
            code: "invalid_request",
            status: "INVALID_ARGUMENT",
            message: `params.${parameter.name}: contains a NUL byte`,
            details: { location: "params", field: `params.${parameter.name}` },
          },
        });
        checked += 1;
      }
    }
    // machines, health, overrides, instances, partitions, expected machines, endpoints, objects…
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  it.each([
    ["GET", "/api/v1/machines/a%00b", undefined, "params.id"],
    ["GET", "/api/v1/objects/managed-host?state=%ED%A0%80", undefined, "querystring.state"],
    ["GET", "/api/v1/objects/managed-host?after=h%00", undefined, "querystring.after"],
    ["GET", "/api/v1/instances?tenantOrg=%ED%B0%80", undefined, "querystring.tenantOrg"],
    ["POST", "/api/v1/instances", { tenantOrg: "acme\uD800", machineId: "h-1" }, "body.tenantOrg"],
    [
      "POST",
      "/api/v1/instances",
      {
        tenantOrg: "acme",
        machineId: "h-1",
        config: { network: { interfaces: [{ function: "pf0", network: "n\u0000" }] } },
      },
      "body.config.network.interfaces[0].network",
    ],
    [
      "POST",
      "/api/v1/machines/h-1/health/overrides",
      { source: "sre\u0000", template: "maintenance" },
      "body.source",
    ],
    [
      "POST",
      "/api/v1/machines/h-1/health/overrides",
      { source: "sre", report: { source: "sre", alerts: [{ id: "A", message: "\uDFFF" }] } },
      "body.report.alerts[0].message",
    ],
    [
      "POST",
      "/api/v1/dhcp/discover",
      { mac: "02:00:00:00:00:01", vendorClass: "X\u0000" },
      "body.vendorClass",
    ],
  ])(
    "answers text the database cannot hold (%s %s) with 400 naming the field",
    async (method, path, body, field) => {
      const { status, error } = await failure(method, path, body);
      expect(status).toBe(400);
      expect(error).toMatchObject({ code: "invalid_request", details: { field } });
      expect(error?.message.startsWith(`${field}: `)).toBe(true);
    },
  );

  it.each([
    ["POST", "/api/v1/dhcp/discover", { mac: "x".repeat(MEGABYTE - 100) }, "body.mac", 64],
    [
      "POST",
      "/api/v1/expected-machines",
      {
        bmcMac: "02:00:00:00:00:09",
        chassisSerial: "S",
        factoryUsername: "root",
        factoryPassword: "p".repeat(MEGABYTE - 200),
      },
      "body.factoryPassword",
      256,
    ],
    [
      "POST",
      "/api/v1/machines/h-1/health/overrides",
      { source: "sre", template: "maintenance", message: "m".repeat(MEGABYTE - 200) },
      "body.message",
      4096,
    ],
  ])(
    "answers a 1 MB string (%s %s) with a short 400 naming the field",
    async (method, path, body, field, limit) => {
      const { status, error, length } = await failure(method, path, body);
      expect(status).toBe(400);
      expect(error).toMatchObject({
        code: "invalid_request",
        message: `${field}: must NOT have more than ${limit} characters`,
        details: { field },
      });
      expect(length).toBeLessThan(2048);
    },
  );

  it.each([
    ["POST", "/api/v1/expected-machines"],
    ["POST", "/api/v1/objects/managed-host/h-1/enqueue"],
    ["PUT", "/api/v1/instances/i-1/config"],
  ])("answers a body nested 100,000 deep (%s %s) with a 400, not a stack overflow", async (method, path) => {
    // Written out as text: JSON.stringify itself would overflow on it.
    const depth = 100_000;
    const response = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${api.adminToken}` },
      body: `${"[".repeat(depth)}"leaf"${"]".repeat(depth)}`,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as ApiErrorBody).error.code).toBe("invalid_request");
  });

  it("quotes only an excerpt of a bad value the service itself refuses", async () => {
    const { status, error, length } = await failure("POST", "/api/v1/dhcp/discover", { mac: "z".repeat(64) });
    expect(status).toBe(400);
    expect(error?.message).toBe(`mac: "${"z".repeat(39)}… (66 characters) is not a MAC address`);
    expect(length).toBeLessThan(2048);
  });

  it("refuses a boolean or a number for a string field of a body, but still reads numbers from the query", async () => {
    const boolean = await failure("POST", "/api/v1/dhcp/discover", {
      mac: "02:00:00:00:00:01",
      vendorClass: true,
    });
    expect(boolean).toMatchObject({
      status: 400,
      error: {
        code: "invalid_request",
        message: "body.vendorClass: must be string",
        details: { location: "body", field: "body.vendorClass" },
      },
    });
    const number = await failure("POST", "/api/v1/instances", { tenantOrg: 42, machineId: "h-1" });
    expect(number.error).toMatchObject({ message: "body.tenantOrg: must be string" });
    expect((await api.request("GET", "/api/v1/objects/managed-host?limit=1")).status).toBe(200);
    expect((await api.request("GET", "/api/v1/instances?includeTerminated=true")).status).toBe(200);
  });

  it("answers a path that is not UTF-8, a huge path parameter and a malformed request in the error format", async () => {
    const badPath = await failure("GET", "/api/v1/machines/%ED%A0%80");
    expect(badPath).toMatchObject({
      status: 400,
      error: { code: "invalid_request", status: "INVALID_ARGUMENT", details: { location: "url" } },
    });
    const hugeParameter = await failure("GET", `/api/v1/machines/${"m".repeat(4096)}`);
    expect(hugeParameter).toMatchObject({ status: 414, error: { code: "invalid_request" } });
    expect(hugeParameter.length).toBeLessThan(2048);

    const raw = await rawHttp(api.service.http.port);
    raw.socket.write("NOT HTTP AT ALL\r\n\r\n");
    await raw.closed;
    const [head = "", body = ""] = raw.received().split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(body)).toEqual({
      error: {
        code: "invalid_request",
        status: "INVALID_ARGUMENT",
        message: "request: is not valid HTTP/1.1",
        details: { location: "request" },
      },
    });
  });

  it("documents a request body on every operation that takes one, its references rewritten", () => {
    const posts = operations.filter(([key]) => /^(post|put|patch) /.test(key));
    expect(posts.length).toBeGreaterThanOrEqual(12);
    for (const [key, operation] of posts) {
      if (BODYLESS.has(key)) {
        expect({ key, requestBody: operation.requestBody }).toEqual({ key, requestBody: undefined });
        continue;
      }
      expect({ key, required: operation.requestBody?.required }).toEqual({
        key,
        required: !OPTIONAL_BODIES.has(key),
      });
      const schema = operation.requestBody?.content["application/json"]?.schema;
      expect({ key, type: schema?.type }).toEqual({ key, type: expect.anything() });
      for (const [at, sub] of subschemas(schema, key)) {
        if (typeof sub.$ref === "string")
          expect({ at, ref: sub.$ref }).toEqual({
            at,
            ref: expect.stringMatching(/^#\/components\/schemas\//),
          });
      }
    }
    const allocate =
      document.paths["/api/v1/instances"]?.post?.requestBody?.content["application/json"]?.schema;
    expect(allocate).toMatchObject({
      required: ["tenantOrg"],
      properties: { tenantOrg: { maxLength: 255 } },
    });
  });

  it("bounds every string and every array of every request (a default where the route sets none)", () => {
    const unbounded: string[] = [];
    let strings = 0;
    let arrays = 0;
    for (const [key, operation] of operations) {
      const schemas: Array<[string, unknown]> = [
        ...(operation.parameters ?? []).map((p): [string, unknown] => [`${key} ${p.in}.${p.name}`, p.schema]),
        [`${key} body`, operation.requestBody?.content["application/json"]?.schema],
      ];
      for (const [where, schema] of schemas) {
        for (const [at, sub] of subschemas(schema, where)) {
          const types = typesOf(sub);
          if (types.includes("string")) {
            strings += 1;
            if (typeof sub.maxLength !== "number") unbounded.push(`${at}: string without maxLength`);
          }
          if (types.includes("array")) {
            arrays += 1;
            if (typeof sub.maxItems !== "number") unbounded.push(`${at}: array without maxItems`);
          }
        }
      }
    }
    expect(unbounded).toEqual([]);
    expect(strings).toBeGreaterThan(40);
    expect(arrays).toBeGreaterThan(5);
    // A route that names no limit gets the default one: UFM's raw view takes any path.
    const browse = document.paths["/api/v1/ufm/browse"]?.get?.parameters?.find((p) => p.name === "path");
    expect(browse?.schema.maxLength).toBe(DEFAULT_MAX_STRING_LENGTH);
  });
});
