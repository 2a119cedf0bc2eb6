import { Ajv, type AnySchema, type Options, type SchemaObject, type ValidateFunction } from "ajv";
import type { FastifySchemaCompiler } from "fastify";

/** RFC 3339: a date, a time and an explicit offset. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * fastify's own ajv defaults (`@fastify/ajv-compiler`), keeping what the caller sent: no property is removed.
 * Types need not be declared beside `maxLength`/`maxItems`: a schema may bound the strings and arrays of a
 * value whose types its service checks (the inventory's rows, a health report). Of the formats only
 * `date-time`, the one our schemas use, is known (there is no ajv-formats): another fails to compile, loudly.
 */
const AJV_OPTIONS: Options = {
  useDefaults: true,
  removeAdditional: false,
  addUsedSchema: false,
  allErrors: false,
  strictTypes: false,
  formats: {
    "date-time": {
      type: "string",
      validate: (value) => DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)),
    },
  },
};

/**
 * Compiles request schemas with two ajv instances: path parameters, query strings and headers arrive as text,
 * so they are coerced (`?limit=10` is the integer 10); a JSON body is checked as sent, so `true` is not the
 * string "true". `sharedSchemas` lists the schemas added with `addSchema` (read at compile time: features
 * add theirs when they register their routes).
 */
export function requestValidatorCompiler(
  sharedSchemas: () => Record<string, unknown>,
): FastifySchemaCompiler<AnySchema> {
  const coercing = new Ajv({ ...AJV_OPTIONS, coerceTypes: "array" });
  const exact = new Ajv({ ...AJV_OPTIONS, coerceTypes: false });
  return ({ schema, httpPart }) => {
    const ajv = httpPart === "body" ? exact : coercing;
    for (const shared of Object.values(sharedSchemas()) as SchemaObject[]) {
      if (typeof shared.$id === "string" && !ajv.getSchema(shared.$id)) ajv.addSchema(shared);
    }
    // A schema with an `$id` compiles once per instance (ajv refuses the same `$id` twice).
    const id = typeof schema === "object" ? schema.$id : undefined;
    const validate = (typeof id === "string" ? ajv.getSchema(id) : undefined) ?? ajv.compile(schema);
    return httpPart === "body" ? validate : finiteNumbersOnly(validate);
  };
}

/**
 * ajv coerces `?limit=1e400` to Infinity and lets it through `integer` and `maximum`: a coerced number that is
 * not finite is refused here, naming its field, before any handler sees it.
 */
function finiteNumbersOnly(validate: ValidateFunction): ValidateFunction {
  const checked = ((data: unknown) => {
    if (!validate(data)) {
      checked.errors = validate.errors;
      return false;
    }
    const key = nonFiniteKey(data);
    checked.errors =
      key === undefined
        ? null
        : [
            {
              instancePath: `/${key}`,
              schemaPath: "#",
              keyword: "type",
              params: {},
              message: "must be a finite number",
            },
          ];
    return key === undefined;
  }) as ValidateFunction;
  return checked;
}

function nonFiniteKey(data: unknown): string | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  for (const [key, value] of Object.entries(data)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((item) => typeof item === "number" && !Number.isFinite(item))) return key;
  }
  return undefined;
}
