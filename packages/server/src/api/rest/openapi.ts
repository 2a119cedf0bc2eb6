import "./schemaDocs.js";
import { CORE_VERSION } from "@racksmith/core";
import type { FastifyInstance, RouteOptions } from "fastify";
import { SHARED_SCHEMAS } from "./schemas.js";

interface DocumentedRoute {
  method: string;
  url: string;
  schema: Record<string, unknown>;
}

/** Collects every route's schema as it is registered, so the OpenAPI document cannot drift from the routes. */
export function collectRoutes(app: FastifyInstance): DocumentedRoute[] {
  const routes: DocumentedRoute[] = [];
  app.addHook("onRoute", (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === "HEAD" || !route.schema || route.schema.hide) continue;
      routes.push({
        method: method.toLowerCase(),
        url: route.url,
        schema: route.schema as Record<string, unknown>,
      });
    }
  });
  return routes;
}

/** OpenAPI 3.1 built from the collected routes; `{ $ref: "X#" }` schema references point at components. */
export function openApiDocument(routes: readonly DocumentedRoute[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.url.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
    const schema = route.schema;
    const parameters = [...parametersOf(schema.params, "path"), ...parametersOf(schema.querystring, "query")];
    const responses: Record<string, unknown> = {};
    for (const [status, body] of Object.entries((schema.response as Record<string, unknown>) ?? {})) {
      responses[status] = {
        description: (body as { description?: string }).description ?? `HTTP ${status}`,
        content: {
          [status === "200" && route.url === "/metrics" ? "text/plain" : "application/json"]: {
            schema: refs(body),
          },
        },
      };
    }
    const requestBody = requestBodyOf(schema.body);
    paths[path] ??= {};
    paths[path][route.method] = {
      summary: schema.summary,
      ...(schema.description ? { description: schema.description } : {}),
      tags: schema.tags,
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Racksmith", version: CORE_VERSION, description: "Racksmith core REST API" },
    paths,
    components: { schemas: Object.fromEntries(SHARED_SCHEMAS.map((s) => [s.$id, refs(s)])) },
  };
}

function parametersOf(schema: unknown, location: "path" | "query"): unknown[] {
  const object = schema as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  return Object.entries(object?.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === "path" || (object?.required ?? []).includes(name),
    schema: property,
  }));
}

/** A route's JSON body as an OpenAPI `requestBody`: required unless its schema also allows `null` (no body). */
function requestBodyOf(body: unknown): Record<string, unknown> | undefined {
  if (!body || typeof body !== "object") return undefined;
  const { type, nullable, description } = body as {
    type?: unknown;
    nullable?: unknown;
    description?: unknown;
  };
  const optional = nullable === true || (Array.isArray(type) && type.includes("null"));
  return {
    ...(typeof description === "string" ? { description } : {}),
    required: !optional,
    content: { "application/json": { schema: refs(body) } },
  };
}

/** Rewrites fastify's `X#` references as OpenAPI component references and drops `$id`. */
function refs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(refs);
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === "$id") continue;
    out[key] =
      key === "$ref" && typeof item === "string"
        ? `#/components/schemas/${item.replace(/#$/, "")}`
        : refs(item);
  }
  return out;
}
