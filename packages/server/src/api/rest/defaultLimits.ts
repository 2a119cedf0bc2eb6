import type { FastifyInstance, FastifySchema } from "fastify";
import { DEFAULT_MAX_ARRAY_ITEMS, DEFAULT_MAX_STRING_LENGTH } from "../input/index.js";

type JsonSchema = Record<string, unknown>;

/** The request parts whose schemas get limits; responses are ours and need none. */
const REQUEST_PARTS = ["body", "querystring", "params", "headers"] as const;
/** Keywords holding one subschema. */
const SCHEMA_KEYWORDS = new Set([
  "additionalProperties",
  "items",
  "additionalItems",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
]);
/** Keywords holding a list of subschemas. */
const SCHEMA_LIST_KEYWORDS = new Set(["anyOf", "oneOf", "allOf", "prefixItems", "items"]);
/** Keywords holding subschemas by name. */
const SCHEMA_MAP_KEYWORDS = new Set(["properties", "patternProperties", "dependentSchemas", "$defs"]);

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typesOf(schema: JsonSchema): unknown[] {
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/**
 * A copy of `schema` in which every string without `maxLength` gets the default one and every array without
 * `maxItems` the default count. Values (`enum`, `const`, `default`, `examples`) are left as they are; the
 * schema given is not changed (route schemas share constants with responses).
 */
export function withDefaultLimits(schema: unknown): unknown {
  if (!isSchema(schema)) return schema;
  const limited: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (SCHEMA_MAP_KEYWORDS.has(keyword) && isSchema(value)) {
      limited[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, subschema]) => [name, withDefaultLimits(subschema)]),
      );
    } else if (SCHEMA_LIST_KEYWORDS.has(keyword) && Array.isArray(value)) {
      limited[keyword] = value.map(withDefaultLimits);
    } else if (SCHEMA_KEYWORDS.has(keyword)) {
      limited[keyword] = withDefaultLimits(value);
    } else {
      limited[keyword] = value;
    }
  }
  const types = typesOf(schema);
  if (types.includes("string") && limited.maxLength === undefined)
    limited.maxLength = DEFAULT_MAX_STRING_LENGTH;
  if (types.includes("array") && limited.maxItems === undefined) limited.maxItems = DEFAULT_MAX_ARRAY_ITEMS;
  return limited;
}

/**
 * Gives every request schema of every route registered after this its default limits, before the route's
 * validators are compiled and before the OpenAPI document collects it (register this hook first).
 */
export function applyDefaultLimits(app: FastifyInstance): void {
  app.addHook("onRoute", (route) => {
    if (!route.schema) return;
    const schema: FastifySchema = { ...route.schema };
    for (const part of REQUEST_PARTS) {
      if (schema[part] !== undefined) schema[part] = withDefaultLimits(schema[part]);
    }
    route.schema = schema;
  });
}
