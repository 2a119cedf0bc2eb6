import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeApiContext, harnessGate, widget } from "../../testing/index.js";
import { DEFAULT_MAX_ARRAY_ITEMS, DEFAULT_MAX_STRING_LENGTH } from "../input/index.js";
import { createRestServer } from "./createRestServer.js";
import { MAX_PATH_PARAMETER_LENGTH } from "./frameworkErrors.js";

describe("REST API", () => {
  const context = fakeApiContext([widget("w-1"), widget("w-2", "done"), widget("w-3")]);
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createRestServer(context, [], { gate: harnessGate() });
  });
  afterAll(() => app.close());

  it("answers liveness and readiness", async () => {
    expect((await app.inject({ url: "/healthz" })).json()).toEqual({ status: "ok" });
    const ready = await app.inject({ url: "/readyz" });
    expect(ready.statusCode).toBe(200);
    context.ready = [{ name: "migrations", ok: false, detail: "pending: 0002" }];
    const notReady = await app.inject({ url: "/readyz" });
    expect(notReady.statusCode).toBe(503);
    expect(notReady.json()).toEqual({
      status: "not ready",
      checks: [{ name: "migrations", ok: false, detail: "pending: 0002" }],
    });
  });

  it("serves an object's state with its history, SLA and outcome", async () => {
    const response = await app.inject({ url: "/api/v1/objects/widget/w-1?historyLimit=1" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ...widget("w-1"), history: [widget("w-1").history[0]] });
  });

  it.each([
    ["/api/v1/objects/widget/nope", 404, "state_object_not_found", "widget nope does not exist"],
    [
      "/api/v1/objects/gadget/w-1",
      400,
      "state_unknown_object_type",
      'no state machine handles object type "gadget" (known: widget)',
    ],
    [
      "/api/v1/objects/widget/w-1?historyLimit=-3",
      400,
      "invalid_request",
      "querystring.historyLimit: must be >= 0",
    ],
    [
      "/api/v1/objects/widget/w-1?colour=red",
      400,
      "invalid_request",
      "querystring.colour: is not a known property",
    ],
    ["/api/v1/nothing-here", 404, "route_not_found", "no route GET /api/v1/nothing-here"],
  ])("GET %s → %i %s", async (url, status, code, message) => {
    const response = await app.inject({ url });
    expect(response.statusCode).toBe(status);
    expect(response.json().error).toMatchObject({ code, message });
  });

  it("lists objects by state with a cursor", async () => {
    const page = await app.inject({ url: "/api/v1/objects/widget?state=assembling&limit=1" });
    expect(page.json()).toMatchObject({ objects: [{ objectId: "w-1" }], nextAfter: "w-1" });
    const next = await app.inject({ url: "/api/v1/objects/widget?state=assembling&limit=1&after=w-1" });
    expect(next.json()).toMatchObject({ objects: [{ objectId: "w-3" }], nextAfter: "w-3" });
  });

  it("enqueues an existing object and refuses an unknown one", async () => {
    expect((await app.inject({ method: "POST", url: "/api/v1/objects/widget/w-2/enqueue" })).statusCode).toBe(
      202,
    );
    expect(context.enqueued).toEqual([["widget", "w-2"]]);
    expect((await app.inject({ method: "POST", url: "/api/v1/objects/widget/w-9/enqueue" })).statusCode).toBe(
      404,
    );
  });

  it("reports its version and Prometheus metrics", async () => {
    expect((await app.inject({ url: "/api/v1/version" })).json()).toMatchObject({
      coreVersion: "0.1.0",
      pluginApiVersion: 1,
    });
    const metrics = await app.inject({ url: "/metrics" });
    expect(metrics.headers["content-type"]).toMatch(/text\/plain/);
  });

  it("publishes an OpenAPI document built from the routes", async () => {
    const document = (await app.inject({ url: "/openapi.json" })).json();
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths).sort()).toEqual([
      "/api/v1/objects/{objectType}",
      "/api/v1/objects/{objectType}/{objectId}",
      "/api/v1/objects/{objectType}/{objectId}/enqueue",
      "/api/v1/version",
      "/healthz",
      "/metrics",
      "/readyz",
    ]);
    const get = document.paths["/api/v1/objects/{objectType}/{objectId}"].get;
    expect(get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      "path:objectType",
      "path:objectId",
      "query:historyLimit",
    ]);
    expect(get.responses["200"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/ObjectState",
    });
    expect(document.components.schemas.ObjectState.required).toContain("stateLabel");
  });
});

describe("REST API request errors", () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createRestServer(
      fakeApiContext(),
      [(routes) => routes.post("/echo", async (request) => ({ echoed: request.body }))],
      { gate: harnessGate() },
    );
  });
  afterAll(() => app.close());

  it.each([
    ["malformed JSON", "{not json", "application/json", 400],
    ["an unsupported content type", "<a/>", "application/xml", 415],
  ])("answers %s with fastify's status in the error format", async (_, payload, type, statusCode) => {
    const response = await app.inject({
      method: "POST",
      url: "/echo",
      payload,
      headers: { "content-type": type },
    });
    expect(response.statusCode).toBe(statusCode);
    expect(response.json().error).toMatchObject({ code: "invalid_request", status: "INVALID_ARGUMENT" });
  });

  it("answers a body over the route's limit (default 1 MiB) with 413 request_too_large", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/echo",
      payload: JSON.stringify({ a: "x".repeat(1024 * 1024) }),
      headers: { "content-type": "application/json" },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      error: {
        code: "request_too_large",
        status: "RESOURCE_EXHAUSTED",
        message: "request body is larger than 1048576 bytes, the limit of POST /echo",
        details: { limitBytes: 1048576 },
      },
    });
  });
});

describe("REST API input checks", () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createRestServer(
      fakeApiContext(),
      [
        (routes) =>
          routes.post(
            "/things/:id",
            {
              schema: {
                summary: "An echo",
                params: { type: "object", properties: { id: { type: "string", maxLength: 8 } } },
                querystring: { type: "object", properties: { count: { type: "integer" } } },
                body: {
                  type: ["object", "null"],
                  properties: {
                    name: { type: "string" },
                    tags: { type: "array", items: { type: "string" } },
                  },
                },
              },
            },
            async (request) => ({ params: request.params, query: request.query, body: request.body }),
          ),
        (routes) =>
          routes.post(
            "/labelled",
            {
              schema: {
                body: {
                  type: "object",
                  additionalProperties: false,
                  properties: { labels: { type: "object", propertyNames: { maxLength: 4 } } },
                },
              },
            },
            async (request) => request.body,
          ),
      ],
      { gate: harnessGate() },
    );
  });
  afterAll(() => app.close());

  const post = (url: string, body: unknown) =>
    app.inject({
      method: "POST",
      url,
      payload: JSON.stringify(body),
      headers: { "content-type": "application/json" },
    });

  it("coerces the query string and path parameters, never the body", async () => {
    const ok = await post("/things/t1?count=10", { name: "a", tags: ["b"] });
    expect(ok.json()).toEqual({
      params: { id: "t1" },
      query: { count: 10 },
      body: { name: "a", tags: ["b"] },
    });
    for (const [body, field, message] of [
      [{ name: true }, "body.name", "body.name: must be string"],
      [{ name: 7 }, "body.name", "body.name: must be string"],
      [{ tags: "b" }, "body.tags", "body.tags: must be array"],
    ] as const) {
      const refused = await post("/things/t1", body);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toEqual({
        code: "invalid_request",
        status: "INVALID_ARGUMENT",
        message,
        details: { location: "body", field },
      });
    }
  });

  it.each(["1e400", "-1e400"])(
    "refuses a query number that coerces to infinity (%s), naming the field",
    async (count) => {
      const refused = await post(`/things/t1?count=${count}`, { name: "a" });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toMatchObject({
        code: "invalid_request",
        message: "querystring.count: must be a finite number",
      });
    },
  );

  it("bounds every request string and array by default, and says so in the OpenAPI document", async () => {
    const long = await post("/things/t1", { name: "n".repeat(DEFAULT_MAX_STRING_LENGTH + 1) });
    expect(long.json().error).toMatchObject({
      message: `body.name: must NOT have more than ${DEFAULT_MAX_STRING_LENGTH} characters`,
    });
    const many = await post("/things/t1", {
      tags: Array.from({ length: DEFAULT_MAX_ARRAY_ITEMS + 1 }, () => "t"),
    });
    expect(many.json().error).toMatchObject({
      message: `body.tags: must NOT have more than ${DEFAULT_MAX_ARRAY_ITEMS} items`,
    });
    const idTooLong = await post("/things/123456789", {});
    expect(idTooLong.json().error).toMatchObject({ details: { location: "params", field: "params.id" } });

    const operation = (await app.inject({ url: "/openapi.json" })).json().paths["/things/{id}"].post;
    expect(operation.requestBody).toEqual({
      required: false,
      content: {
        "application/json": {
          schema: {
            type: ["object", "null"],
            properties: {
              name: { type: "string", maxLength: DEFAULT_MAX_STRING_LENGTH },
              tags: {
                type: "array",
                maxItems: DEFAULT_MAX_ARRAY_ITEMS,
                items: { type: "string", maxLength: DEFAULT_MAX_STRING_LENGTH },
              },
            },
          },
        },
      },
    });
    expect(operation.parameters).toContainEqual({
      name: "id",
      in: "path",
      required: true,
      schema: { type: "string", maxLength: 8 },
    });
  });

  it("names an unknown property, and a key its schema refuses (quoting only the key's start)", async () => {
    const unknown = await post("/labelled", { colour: "red" });
    expect(unknown.json().error).toMatchObject({
      message: "body.colour: is not a known property",
      details: { location: "body", field: "body.colour" },
    });
    const key = "k".repeat(100_000);
    const badKey = await post("/labelled", { labels: { [key]: "v" } });
    const field = `body.labels.${"k".repeat(64)}… (100000 characters)`;
    expect(badKey.json().error).toMatchObject({
      message: `${field}: key must NOT have more than 4 characters`,
      details: { location: "body", field },
    });
  });

  it.each([
    ["a NUL in a path parameter", "/things/a%00b", {}, "params.id", "params.id: contains a NUL byte"],
    [
      "a NUL in the query",
      "/things/t1?count=%00",
      {},
      "querystring.count",
      "querystring.count: contains a NUL byte",
    ],
    [
      "a query value that is not UTF-8",
      "/things/t1?count=%ED%A0%80",
      {},
      "querystring.count",
      "querystring.count: is not percent-encoded UTF-8",
    ],
    [
      "a lone surrogate in the body",
      "/things/t1",
      { tags: ["ok", "\uD800"] },
      "body.tags[1]",
      "body.tags[1]: contains a lone UTF-16 surrogate (U+D800) at index 0",
    ],
  ])("refuses %s with 400 naming the field", async (_, url, body, field, message) => {
    const refused = await post(url, body);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toEqual({
      code: "invalid_request",
      status: "INVALID_ARGUMENT",
      message,
      details: { location: field.split(/[.[]/)[0], field },
    });
  });

  it("answers a path that does not decode, or a path parameter over the router's limit, in the error format", async () => {
    const badPath = await app.inject({ url: "/things/%ED%A0%80", method: "POST" });
    expect(badPath.statusCode).toBe(400);
    expect(badPath.json()).toEqual({
      error: {
        code: "invalid_request",
        status: "INVALID_ARGUMENT",
        message: "url: the path is not percent-encoded UTF-8",
        details: { location: "url" },
      },
    });
    const longParam = await app.inject({
      url: `/things/${"p".repeat(MAX_PATH_PARAMETER_LENGTH + 1)}`,
      method: "POST",
    });
    expect(longParam.statusCode).toBe(414);
    expect(longParam.json().error).toMatchObject({ code: "invalid_request", details: { location: "url" } });
    expect(longParam.body.length).toBeLessThan(300);
  });
});
