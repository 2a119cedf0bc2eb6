import {
  deepJson,
  encodeSegment,
  type FuzzValue,
  HOSTILE_CONTENT_TYPES,
  HOSTILE_PATH_SEGMENTS,
  HOSTILE_QUERY_SHAPES,
  HOSTILE_STRINGS,
  type Hostile,
  MALFORMED_JSON,
  NESTING_DEPTHS,
  toJsonText,
  truncate,
  WRONG_TOP_LEVEL,
} from "./mutations.js";
import { type Operation, routeName } from "./openapi.js";
import type { Rng } from "./prng.js";
import {
  BODY_FIELD_MUTATIONS,
  type BodyFieldMutation,
  mutateBody,
  type SchemaContext,
  validValue,
} from "./schema.js";

/** One HTTP request to send: raw path (already encoded), headers, body bytes, and what it tries. */
export interface RestCase {
  /** The operation, `POST /api/v1/instances`. */
  route: string;
  method: string;
  /** Path and query exactly as sent (percent-encoding is not normalised). */
  path: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  /** `category: detail`, short. */
  description: string;
}

const BODY_CATEGORIES = [
  "valid",
  ...BODY_FIELD_MUTATIONS.map((kind) => `body-${kind}` as const),
  "body-top-level",
  "body-deep",
  "body-malformed",
  "body-empty",
  "body-content-type",
  "body-invalid-utf8",
  "body-huge",
] as const;

export type RestCategory =
  | (typeof BODY_CATEGORIES)[number]
  | "query-shape"
  | "path-param"
  | "query-param"
  | "body-on-bodiless";

/** The categories an operation is fuzzed with, in rotation order (repeats weigh a category up). */
export function restCategories(operation: Operation): RestCategory[] {
  const categories: RestCategory[] = operation.body ? [...BODY_CATEGORIES] : ["valid", "body-on-bodiless"];
  categories.push("query-shape");
  if (operation.pathParams.length > 0) categories.push("path-param", "path-param", "path-param");
  if (operation.queryParams.length > 0) categories.push("query-param", "query-param");
  return categories;
}

/** Generic bodies for an operation whose document says nothing of its body. */
function genericBody(context: SchemaContext): FuzzValue {
  const id = context.vocabulary.get("id")?.[0] ?? "fuzz";
  return context.rng.pick<FuzzValue>([
    {},
    { name: "fuzz" },
    { id },
    { machineId: context.vocabulary.get("machineid")?.[0] ?? id, tenantOrg: "fuzz-org" },
    { items: [{ a: 1 }], enabled: true, count: 1 },
  ]);
}

/** Textual forms of wrong-typed scalars, for a path or query value. */
const WRONG_SCALAR_TEXT: readonly Hostile<string>[] = [
  { label: "text -1", value: "-1" },
  { label: "text 1.5", value: "1.5" },
  { label: "text 1e400", value: "1e400" },
  { label: "text true", value: "true" },
  { label: "text null", value: "null" },
  { label: "text []", value: "%5B%5D" },
  { label: "text {}", value: "%7B%7D" },
  { label: "text abc", value: "abc" },
  { label: "text 99999999999999999999", value: "99999999999999999999" },
];

/** A hostile path or query value, raw (already encoded): an invalid encoding, a hostile string, a wrong type. */
function hostileSegment(rng: Rng, allowHuge: boolean): Hostile<string> {
  const roll = rng.int(3);
  if (roll === 0) return rng.pick(HOSTILE_PATH_SEGMENTS);
  if (roll === 1) return rng.pick(WRONG_SCALAR_TEXT);
  const strings = allowHuge ? HOSTILE_STRINGS : HOSTILE_STRINGS.filter((s) => s.value.length <= 64 * 1024);
  const chosen = rng.pick(strings);
  return { label: chosen.label, value: encodeSegment(chosen.value) };
}

/** The case of category `category` for `operation`; `context.rng` makes every choice. */
export function buildRestCase(
  operation: Operation,
  category: RestCategory,
  context: SchemaContext,
): RestCase {
  const { rng } = context;
  const details: string[] = [];
  const valueText = (name: string, schema: Record<string, unknown>): string => {
    const value = validValue(schema, context, name);
    return encodeSegment(typeof value === "string" ? value : toJsonText(value));
  };

  // Path: valid values, or one hostile segment.
  const pathValues = new Map(operation.pathParams.map((p) => [p.name, valueText(p.name, p.schema)]));
  if (category === "path-param" && operation.pathParams.length > 0) {
    const target = rng.pick(operation.pathParams);
    const hostile = hostileSegment(rng, false);
    pathValues.set(target.name, hostile.value);
    details.push(`{${target.name}} = ${hostile.label}`);
  }
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => pathValues.get(name) ?? "x");

  // Query: required parameters and some optional ones, or one hostile value, or a hostile shape.
  const query: string[] = [];
  const hostileQuery = category === "query-param" ? rng.pick(operation.queryParams) : undefined;
  for (const parameter of operation.queryParams) {
    if (parameter === hostileQuery) {
      const hostile = hostileSegment(rng, true);
      query.push(`${encodeSegment(parameter.name)}=${hostile.value}`);
      details.push(`?${parameter.name} = ${hostile.label}`);
    } else if (parameter.required || rng.chance(0.5)) {
      query.push(`${encodeSegment(parameter.name)}=${valueText(parameter.name, parameter.schema)}`);
    }
  }
  if (category === "query-shape") {
    const shape = rng.pick(HOSTILE_QUERY_SHAPES);
    query.push(shape.value);
    details.push(`query ${shape.label}`);
  }
  const target = query.length > 0 ? `${path}?${query.join("&")}` : path;

  const { body, headers } = bodyFor(operation, category, context, details);
  if (details.length === 0)
    details.push(body === undefined ? "no body" : `body ${truncate(String(body), 80)}`);
  return {
    route: routeName(operation),
    method: operation.method,
    path: target,
    headers,
    body,
    description: truncate(`${category}: ${details.join("; ")}`, 200),
  };
}

const JSON_HEADERS = { "content-type": "application/json" };

function bodyFor(
  operation: Operation,
  category: RestCategory,
  context: SchemaContext,
  details: string[],
): { body: string | Uint8Array | undefined; headers: Record<string, string> } {
  const { rng } = context;
  if (category === "body-on-bodiless") {
    const malformed = rng.pick(MALFORMED_JSON.slice(0, 5));
    details.push(`JSON body on a bodiless route: ${malformed.label}`);
    return { body: malformed.value, headers: JSON_HEADERS };
  }
  if (!operation.body) return { body: undefined, headers: {} };
  const schema = operation.body.schema;
  const valid = (): FuzzValue => (schema ? validValue(schema, context) : genericBody(context));
  switch (category) {
    case "body-top-level": {
      const chosen = rng.pick(WRONG_TOP_LEVEL);
      details.push(chosen.label);
      return { body: chosen.value, headers: JSON_HEADERS };
    }
    case "body-deep": {
      const depth = rng.pick(NESTING_DEPTHS);
      const kind = rng.chance(0.5) ? "array" : "object";
      const nested = deepJson(depth, kind);
      // Whole body, or inside the first property, where a schema walker meets it.
      const whole = rng.chance(0.5);
      const base = valid();
      const key =
        typeof base === "object" && base !== null && !Array.isArray(base) ? Object.keys(base)[0] : undefined;
      details.push(`${kind} nested ${depth} deep ${whole || !key ? "as the body" : `in .${key}`}`);
      if (whole || !key || typeof base !== "object" || base === null || Array.isArray(base)) {
        return { body: nested.raw, headers: JSON_HEADERS };
      }
      return { body: toJsonText({ ...base, [key]: nested }), headers: JSON_HEADERS };
    }
    case "body-malformed": {
      const chosen = rng.pick(MALFORMED_JSON);
      details.push(`malformed JSON: ${chosen.label}`);
      return { body: chosen.value, headers: JSON_HEADERS };
    }
    case "body-empty": {
      const withType = rng.chance(0.5);
      details.push(`empty body ${withType ? "typed JSON" : "without content-type"}`);
      return { body: "", headers: withType ? JSON_HEADERS : {} };
    }
    case "body-content-type": {
      const chosen = rng.pick(HOSTILE_CONTENT_TYPES);
      details.push(`content-type ${chosen.label}`);
      return {
        body: toJsonText(valid()),
        headers: chosen.value === undefined ? {} : { "content-type": chosen.value },
      };
    }
    case "body-invalid-utf8": {
      const base = toJsonText(valid());
      const bad = Uint8Array.from([0xed, 0xa0, 0x80, 0xff, 0xc0, 0xaf]);
      // Splices invalid UTF-8 into the first string value (or a new property when there is none).
      const at = base.indexOf('"', base.indexOf(":") + 1);
      const text = at > 0 ? base : '{"fuzz":""}';
      const cut = at > 0 ? at + 1 : text.indexOf('""') + 1;
      const encoder = new TextEncoder();
      details.push("invalid UTF-8 bytes in a string");
      return {
        body: Buffer.concat([encoder.encode(text.slice(0, cut)), bad, encoder.encode(text.slice(cut))]),
        headers: JSON_HEADERS,
      };
    }
    case "body-huge": {
      const base = valid();
      const megabytes = rng.chance(0.5) ? 1 : 2;
      const object = typeof base === "object" && base !== null && !Array.isArray(base) ? base : {};
      const key = Object.keys(object)[0] ?? "fuzz";
      details.push(`${megabytes} MB string in .${key}`);
      return {
        body: toJsonText({ ...object, [key]: "z".repeat(megabytes * 1024 * 1024) }),
        headers: JSON_HEADERS,
      };
    }
    case "valid":
    case "query-shape":
    case "path-param":
    case "query-param": {
      const value = valid();
      if (category === "valid")
        details.push(`valid-ish body (${operation.body.source}) ${truncate(toJsonText(value), 100)}`);
      return { body: toJsonText(value), headers: JSON_HEADERS };
    }
    default: {
      const kind = category.replace(/^body-/, "") as BodyFieldMutation;
      const mutated = mutateBody(valid(), schema, kind, context);
      details.push(mutated.label);
      return { body: toJsonText(mutated.value), headers: JSON_HEADERS };
    }
  }
}
