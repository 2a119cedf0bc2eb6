/** JSON as parsed from a mockup file or a request body. */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export type JsonObject = { [key: string]: JsonValue };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Redfish PATCH semantics: objects merge recursively, arrays and scalars replace, `null` sets null. Returns a new
 * object and never mutates either argument (tree documents are shared between many virtual BMCs).
 */
export function deepMerge(target: JsonObject, patch: JsonObject): JsonObject {
  const merged: JsonObject = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    const current = merged[key];
    merged[key] = isJsonObject(current) && isJsonObject(value) ? deepMerge(current, value) : value;
  }
  return merged;
}

/** Removes a key wherever it appears (used once per document at load time). */
export function withoutKeyDeep(value: JsonValue, key: string): JsonValue {
  if (Array.isArray(value)) return value.map((item) => withoutKeyDeep(item, key));
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const [name, child] of Object.entries(value)) {
    if (name !== key) out[name] = withoutKeyDeep(child, key);
  }
  return out;
}

/** The string at `object[key]`, or undefined. */
export function stringField(object: JsonObject | undefined, key: string): string | undefined {
  const value = object?.[key];
  return typeof value === "string" ? value : undefined;
}

/** The object at `object[key]`, or undefined. */
export function objectField(object: JsonObject | undefined, key: string): JsonObject | undefined {
  const value = object?.[key];
  return isJsonObject(value) ? value : undefined;
}

/** The `@odata.id` of a link object such as `{"@odata.id": "/redfish/v1/Systems/1/Bios"}`. */
export function linkOf(value: JsonValue | undefined): string | undefined {
  return isJsonObject(value) ? stringField(value, "@odata.id") : undefined;
}
