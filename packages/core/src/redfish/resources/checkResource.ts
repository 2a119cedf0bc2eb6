import { Ajv, type ErrorObject, type SchemaObject, type ValidateFunction } from "ajv";
import { type FieldSpec, RESOURCE_FIELDS, type ResourceKind } from "./fields.js";

export type DiagnosticSeverity = "error" | "warning" | "info";

/** A problem found in a BMC's answer, naming where it is. Never fatal by itself. */
export interface Diagnostic {
  severity: DiagnosticSeverity;
  /** Request path of the resource (or of the operation) the problem is in. */
  path: string;
  /** JSON field within that resource, when the problem is one field. */
  field?: string;
  message: string;
  /** The resource could not be read at all, so what it holds is missing from the report (maybe for now). */
  unread?: boolean;
}

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new Map<ResourceKind, ValidateFunction>();

const LINK_SCHEMA: SchemaObject = {
  type: "object",
  required: ["@odata.id"],
  properties: { "@odata.id": { type: "string" } },
};

function fieldSchema(spec: FieldSpec): SchemaObject {
  const nullable = spec.nullable ? ["null"] : [];
  switch (spec.type) {
    case "link":
      return LINK_SCHEMA;
    case "links":
      return { type: "array", items: LINK_SCHEMA };
    case "link-or-links":
      return { anyOf: [LINK_SCHEMA, { type: "array", items: LINK_SCHEMA }] };
    case "string":
      // A critical string must carry something besides whitespace (serials are trimmed before use).
      return spec.importance === "critical"
        ? { anyOf: [{ type: "string", pattern: "\\S" }, ...(spec.nullable ? [{ type: "null" }] : [])] }
        : { type: ["string", ...nullable] };
    default:
      return { type: [spec.type, ...nullable] };
  }
}

function validatorFor(kind: ResourceKind): ValidateFunction {
  let validate = compiled.get(kind);
  if (!validate) {
    const fields = RESOURCE_FIELDS[kind];
    const properties: Record<string, SchemaObject> = {};
    const required: string[] = [];
    for (const [name, spec] of Object.entries(fields)) {
      properties[name] = fieldSchema(spec);
      if (spec.importance === "critical" || spec.importance === "required") required.push(name);
    }
    validate = ajv.compile({ type: "object", properties, required });
    compiled.set(kind, validate);
  }
  return validate;
}

/**
 * Checks a resource against the fields Racksmith relies on. Missing or malformed critical fields are errors,
 * required ones warnings; a critical field that is present but null is an error too (pairing needs it).
 */
export function checkResource(kind: ResourceKind, path: string, body: unknown): Diagnostic[] {
  const validate = validatorFor(kind);
  if (validate(body)) return criticalNulls(kind, path, body);
  const fields = RESOURCE_FIELDS[kind];
  const seen = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  for (const error of validate.errors ?? []) {
    const field = fieldOf(error);
    if (!field || seen.has(field)) continue;
    seen.add(field);
    const spec = fields[field];
    const importance = spec?.importance ?? "optional";
    diagnostics.push({
      severity: importance === "critical" ? "error" : importance === "required" ? "warning" : "info",
      path,
      field,
      message:
        error.keyword === "required"
          ? `${kind} is missing ${importance} field ${field}`
          : `${kind} field ${field} ${describe(error, spec)}`,
    });
  }
  return [...diagnostics, ...criticalNulls(kind, path, body).filter((d) => !seen.has(d.field ?? ""))];
}

function criticalNulls(kind: ResourceKind, path: string, body: unknown): Diagnostic[] {
  if (!body || typeof body !== "object") return [];
  const out: Diagnostic[] = [];
  for (const [field, spec] of Object.entries(RESOURCE_FIELDS[kind])) {
    if (spec.importance === "critical" && (body as Record<string, unknown>)[field] === null) {
      out.push({ severity: "error", path, field, message: `${kind} field ${field} is null` });
    }
  }
  return out;
}

function fieldOf(error: ErrorObject): string | undefined {
  if (error.keyword === "required") return String(error.params.missingProperty);
  const first = error.instancePath.split("/")[1];
  return first ? first.replace(/~1/g, "/").replace(/~0/g, "~") : undefined;
}

function describe(error: ErrorObject, spec: FieldSpec | undefined): string {
  if (spec?.type === "string" && spec.importance === "critical") return "is empty or not a string";
  if (spec?.type === "link" || spec?.type === "links" || spec?.type === "link-or-links") {
    return "is not a link (an object with @odata.id)";
  }
  return error.message ?? "is invalid";
}
