import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeApiContext, widget } from "../../testing/index.js";
import { createRestServer } from "./createRestServer.js";

describe("REST API", () => {
  const context = fakeApiContext([widget("w-1"), widget("w-2", "done"), widget("w-3")]);
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createRestServer(context);
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
      "querystring: must NOT have additional properties",
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
    app = await createRestServer(fakeApiContext(), [
      (routes) => routes.post("/echo", async (request) => ({ echoed: request.body })),
    ]);
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
