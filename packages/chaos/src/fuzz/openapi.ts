import type { Schema } from "./schema.js";

/** One operation of the OpenAPI document, as the fuzzer needs it. */
export interface Operation {
  method: string;
  /** The path template, `/api/v1/machines/{id}`. */
  path: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  /** The request body's schema and where it came from (the document, or a guess from the response). */
  body: { schema: Schema | undefined; source: "requestBody" | "response-guess" | "generic" } | undefined;
}

export interface Parameter {
  name: string;
  required: boolean;
  schema: Schema;
}

/** The document's operations and its component schemas. */
export interface OpenApiWalk {
  operations: Operation[];
  components: Record<string, Schema>;
}

const BODY_METHODS = new Set(["post", "put", "patch"]);
const HTTP_METHODS = new Set(["get", "post", "put", "patch", "delete"]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Every operation of an OpenAPI 3 document, in document order. */
export function walkOpenApi(document: unknown): OpenApiWalk {
  if (!isObject(document) || !isObject(document.paths)) throw new Error("not an OpenAPI document: no paths");
  const components =
    isObject(document.components) && isObject(document.components.schemas)
      ? (document.components.schemas as Record<string, Schema>)
      : {};
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    if (!isObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method) || !isObject(operation)) continue;
      const parameters = (Array.isArray(operation.parameters) ? operation.parameters : []).filter(isObject);
      const params = (location: string): Parameter[] =>
        parameters
          .filter((p) => p.in === location && typeof p.name === "string")
          .map((p) => ({
            name: p.name as string,
            required: p.required === true,
            schema: isObject(p.schema) ? p.schema : {},
          }));
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: params("path"),
        queryParams: params("query"),
        body: bodyOf(method, operation),
      });
    }
  }
  return { operations, components };
}

/** The JSON schema of `content`'s `application/json` (or first) media type. */
function jsonSchemaOf(content: unknown): Schema | undefined {
  if (!isObject(content)) return undefined;
  const media = content["application/json"] ?? Object.values(content)[0];
  return isObject(media) && isObject(media.schema) ? media.schema : undefined;
}

function bodyOf(method: string, operation: Record<string, unknown>): Operation["body"] {
  const declared = isObject(operation.requestBody) ? jsonSchemaOf(operation.requestBody.content) : undefined;
  if (declared) return { schema: declared, source: "requestBody" };
  if (!BODY_METHODS.has(method)) return undefined;
  // Until the document declares request bodies, a 2xx response usually names the same fields as the request.
  const responses = isObject(operation.responses) ? operation.responses : {};
  const success = Object.entries(responses).find(([status]) => /^2\d\d$/.test(status))?.[1];
  const guess = isObject(success) ? jsonSchemaOf(success.content) : undefined;
  return guess ? { schema: guess, source: "response-guess" } : { schema: undefined, source: "generic" };
}

/** `GET /api/v1/machines/{id}`: how the report names an operation. */
export function routeName(operation: Pick<Operation, "method" | "path">): string {
  return `${operation.method} ${operation.path}`;
}
