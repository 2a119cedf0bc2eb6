import {
  EXTRA_KEYS,
  type FuzzValue,
  HOSTILE_NUMBERS,
  HOSTILE_STRINGS,
  type Hostile,
  RawJson,
  wrongTypeFor,
} from "./mutations.js";
import type { Rng } from "./prng.js";

/*
 * JSON Schema (as the OpenAPI document writes it) to values: a valid-ish value first, then one mutation of it.
 * Pure and seeded, like the mutations.
 */

/** A JSON Schema object; only the keywords the generator reads are typed. */
export type Schema = Record<string, unknown>;

/** Known real values by normalised name (`bmcMac`, `machine_id` → `bmcmac`, `machineid`): ids that exist. */
export type Vocabulary = ReadonlyMap<string, readonly string[]>;

export interface SchemaContext {
  rng: Rng;
  /** `#/components/schemas/X` targets. */
  components: Readonly<Record<string, Schema>>;
  vocabulary: Vocabulary;
}

/** The key a name is looked up by in a vocabulary: lower case, no `_` or `-`. */
export function vocabularyKey(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, "");
}

const MAX_DEPTH = 6;

/** Plain strings of common shapes, tried against a `pattern` before falling back to a fixed word. */
const PATTERN_CANDIDATES: readonly string[] = [
  "AA:BB:CC:DD:EE:01",
  "10.0.0.1",
  "managed-host",
  "00000000-0000-4000-8000-000000000001",
  "fuzz",
  "a",
  "1",
];

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Follows a `$ref` to `#/components/schemas/…` (once per level; unknown refs read as `{}`). */
export function resolve(schema: Schema, components: Readonly<Record<string, Schema>>): Schema {
  let current = schema;
  for (let hops = 0; hops < 8 && typeof current.$ref === "string"; hops++) {
    const name = current.$ref.replace(/^#\/components\/schemas\//, "");
    current = components[name] ?? {};
  }
  return current;
}

/** The schema's types (`type: ["string", "null"]` → both); none when it does not say. */
function typesOf(schema: Schema): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === "string");
  if (isSchema(schema.properties)) return ["object"];
  if (schema.items !== undefined) return ["array"];
  return [];
}

/** A value the schema accepts, or close to it (patterns are matched from a short list, not solved). */
export function validValue(schema: Schema, context: SchemaContext, name = "", depth = 0): FuzzValue {
  const { rng } = context;
  const resolved = resolve(schema, context.components);
  if ("const" in resolved) return resolved.const as FuzzValue;
  if (Array.isArray(resolved.enum) && resolved.enum.length > 0) return rng.pick(resolved.enum) as FuzzValue;
  for (const keyword of ["oneOf", "anyOf"] as const) {
    const options = resolved[keyword];
    if (Array.isArray(options) && options.length > 0) {
      const chosen = rng.pick(options);
      return validValue(isSchema(chosen) ? chosen : {}, context, name, depth + 1);
    }
  }
  if (Array.isArray(resolved.allOf)) {
    // Merging properties is enough for the documents this service writes.
    const merged: Schema = { type: "object", properties: {}, required: [] };
    for (const part of resolved.allOf) {
      if (!isSchema(part)) continue;
      const r = resolve(part, context.components);
      Object.assign(merged.properties as Schema, isSchema(r.properties) ? r.properties : {});
      (merged.required as unknown[]).push(...(Array.isArray(r.required) ? r.required : []));
    }
    return validValue(merged, context, name, depth + 1);
  }
  const types = typesOf(resolved);
  // Prefer a non-null type: null is the boring member of `["string", "null"]`.
  const type = types.find((t) => t !== "null") ?? types[0] ?? "string";
  switch (type) {
    case "null":
      return null;
    case "boolean":
      return rng.chance(0.5);
    case "integer":
    case "number":
      return numberWithin(resolved, type === "integer", rng);
    case "array":
      return arrayOf(resolved, context, name, depth);
    case "object":
      return objectOf(resolved, context, depth);
    default:
      return stringFor(resolved, context, name);
  }
}

function numberWithin(schema: Schema, integer: boolean, rng: Rng): number {
  const min = typeof schema.minimum === "number" ? schema.minimum : 0;
  const max = typeof schema.maximum === "number" ? schema.maximum : Math.max(min, 100);
  const value = min + rng.next() * (max - min);
  return integer ? Math.floor(value) : value;
}

function arrayOf(schema: Schema, context: SchemaContext, name: string, depth: number): FuzzValue[] {
  if (depth >= MAX_DEPTH) return [];
  const min = typeof schema.minItems === "number" ? schema.minItems : 0;
  const max = Math.min(typeof schema.maxItems === "number" ? schema.maxItems : 3, min + 3);
  const count = min + context.rng.int(Math.max(1, max - min + 1));
  const items = isSchema(schema.items) ? schema.items : {};
  return Array.from({ length: count }, () => validValue(items, context, name, depth + 1));
}

function objectOf(schema: Schema, context: SchemaContext, depth: number): { [key: string]: FuzzValue } {
  const out: { [key: string]: FuzzValue } = {};
  if (depth >= MAX_DEPTH) return out;
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  for (const [key, property] of Object.entries(properties)) {
    // Every required property, and most optional ones so their handling is reached too.
    if (!required.has(key) && !context.rng.chance(0.7)) continue;
    out[key] = validValue(isSchema(property) ? property : {}, context, key, depth + 1);
  }
  if (isSchema(schema.additionalProperties) && context.rng.chance(0.5)) {
    out[`key${context.rng.int(10)}`] = validValue(schema.additionalProperties, context, "", depth + 1);
  }
  return out;
}

function stringFor(schema: Schema, context: SchemaContext, name: string): string {
  const known = context.vocabulary.get(vocabularyKey(name));
  if (known && known.length > 0) return context.rng.pick(known);
  if (schema.format === "date-time") return "2024-01-02T03:04:05.000Z";
  let value = "fuzz";
  if (typeof schema.pattern === "string") {
    try {
      const pattern = new RegExp(schema.pattern, "u");
      value = PATTERN_CANDIDATES.find((candidate) => pattern.test(candidate)) ?? value;
    } catch {
      // A pattern JavaScript cannot compile: keep the fallback word.
    }
  }
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
  if (value.length < min) value = value.padEnd(min, "x");
  return value.slice(0, max);
}

/** What a mutation did, for the report. */
export interface Mutated {
  value: FuzzValue;
  label: string;
}

/** The kinds of one-field body mutations, in the order a run rotates through them. */
export const BODY_FIELD_MUTATIONS = [
  "wrong-type",
  "hostile-string",
  "hostile-number",
  "null-field",
  "extra-property",
  "missing-required",
  "huge-array",
] as const;
export type BodyFieldMutation = (typeof BODY_FIELD_MUTATIONS)[number];

/** Applies one mutation of `kind` to a field of `value` (an object body; other bodies get replaced whole). */
export function mutateBody(
  value: FuzzValue,
  schema: Schema | undefined,
  kind: BodyFieldMutation,
  context: SchemaContext,
): Mutated {
  const { rng } = context;
  if (!isPlainObject(value)) {
    const replacement = replacementFor(kind, value, rng);
    return { value: replacement.value, label: `body → ${replacement.label}` };
  }
  const resolved = schema ? resolve(schema, context.components) : {};
  const { target, path, targetSchema } = pickObject(value, resolved, context);
  const keys = Object.keys(target);
  if (kind === "extra-property") {
    const key = rng.pick(EXTRA_KEYS);
    const extra = rng.pick(HOSTILE_STRINGS.slice(0, 3));
    // defineProperty, so "__proto__" becomes an own key that JSON text carries, not a prototype change.
    Object.defineProperty(target, key, {
      value: extra.value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return { value, label: `extra property ${JSON.stringify(key.slice(0, 20))} at ${path}` };
  }
  if (kind === "missing-required") {
    const required = Array.isArray(targetSchema.required)
      ? targetSchema.required.filter((k): k is string => typeof k === "string")
      : [];
    const victim = required.length > 0 ? rng.pick(required) : keys.length > 0 ? rng.pick(keys) : undefined;
    if (victim === undefined) return { value: {}, label: `empty object at ${path}` };
    delete target[victim];
    return { value, label: `missing${required.includes(victim) ? " required" : ""} ${path}.${victim}` };
  }
  const key = keys.length > 0 ? rng.pick(keys) : "fuzzField";
  const replacement = replacementFor(kind, target[key] ?? "", rng);
  target[key] = replacement.value;
  return { value, label: `${path}.${key} → ${replacement.label}` };
}

function replacementFor(kind: BodyFieldMutation, current: FuzzValue, rng: Rng): Hostile<FuzzValue> {
  switch (kind) {
    case "hostile-string":
      return rng.pick(HOSTILE_STRINGS);
    case "hostile-number":
      return rng.pick(HOSTILE_NUMBERS);
    case "null-field":
      return { label: "null", value: null };
    case "huge-array": {
      const length = rng.pick([1_000, 100_000]);
      return { label: `array of ${length}`, value: new RawJson(`[${Array(length).fill('"x"').join(",")}]`) };
    }
    default:
      return wrongTypeFor(current, rng);
  }
}

function isPlainObject(value: FuzzValue): value is { [key: string]: FuzzValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof RawJson);
}

/** A random object inside `value` (itself, or one nested in its properties), with its schema. */
function pickObject(
  value: { [key: string]: FuzzValue },
  schema: Schema,
  context: SchemaContext,
): { target: { [key: string]: FuzzValue }; path: string; targetSchema: Schema } {
  let target = value;
  let targetSchema = schema;
  let path = "body";
  for (let depth = 0; depth < MAX_DEPTH && context.rng.chance(0.35); depth++) {
    const nested = Object.entries(target).filter((entry): entry is [string, { [key: string]: FuzzValue }] =>
      isPlainObject(entry[1]),
    );
    if (nested.length === 0) break;
    const [key, child] = context.rng.pick(nested);
    const properties = isSchema(targetSchema.properties) ? targetSchema.properties : {};
    const childSchema = properties[key];
    targetSchema = isSchema(childSchema) ? resolve(childSchema, context.components) : {};
    target = child;
    path = `${path}.${key}`;
  }
  return { target, path, targetSchema };
}
