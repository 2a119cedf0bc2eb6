import { InvalidArgumentError } from "@racksmith/core";
import {
  childPath,
  DEFAULT_MAX_ARRAY_ITEMS,
  DEFAULT_MAX_STRING_LENGTH,
  excerpt,
  textProblem,
} from "../input/index.js";
import type { FieldShape, MessageShape } from "./messageShapes.js";
import type { MethodLimits } from "./requestLimits.js";

/** Checks one decoded request: the first field over its limit or not storable as text, else undefined. */
export type RequestCheck = (request: unknown) => InvalidArgumentError | undefined;

/** A field with its limits resolved: what the walk needs, built once per method. */
interface FieldCheck {
  readonly field: FieldShape;
  /** Longest string: the field's own, each item of a list, each key and value of a map. */
  readonly maxLength: number;
  /** Most items of a list or map. */
  readonly maxItems: number;
  /** A nested message's fields (built when first needed: a message may contain itself). */
  nested(): readonly FieldCheck[];
}

/** Where the walk is: field names, list indexes and map keys from the request's root. */
type Segment = string | number;

/** The check of `shape`'s requests against `limits`, defaults for every field they do not name. */
export function requestCheck(shape: MessageShape, limits: MethodLimits): RequestCheck {
  const fields = compile(shape, "", limits);
  return (request) => checkMessage(request, fields, []);
}

/** The path of a field's values in a limits table: `nics`, then `nics[]` for its items, `labels{}` for a map's. */
export function itemPattern(pattern: string, field: FieldShape): string {
  if (field.cardinality === "list") return `${pattern}[]`;
  if (field.cardinality === "map") return `${pattern}{}`;
  return pattern;
}

/** `parent.name`, or `name` at the root. */
export function fieldPattern(parent: string, name: string): string {
  return parent ? `${parent}.${name}` : name;
}

function compile(shape: MessageShape, parent: string, limits: MethodLimits): FieldCheck[] {
  return shape.fields.map((field) => {
    const pattern = fieldPattern(parent, field.name);
    const items = itemPattern(pattern, field);
    let nested: FieldCheck[] | undefined;
    return {
      field,
      maxLength: own(limits.maxLength, items) ?? DEFAULT_MAX_STRING_LENGTH,
      maxItems: own(limits.maxItems, pattern) ?? DEFAULT_MAX_ARRAY_ITEMS,
      nested: () => {
        nested ??= field.message ? compile(field.message, items, limits) : [];
        return nested;
      },
    };
  });
}

function checkMessage(
  message: unknown,
  fields: readonly FieldCheck[],
  at: Segment[],
): InvalidArgumentError | undefined {
  if (!isRecord(message)) return undefined;
  for (const check of fields) {
    const value = message[check.field.name];
    if (value === undefined || value === null) continue;
    at.push(check.field.name);
    const problem = checkField(value, check, at);
    if (problem) return problem;
    at.pop();
  }
  return undefined;
}

function checkField(value: unknown, check: FieldCheck, at: Segment[]): InvalidArgumentError | undefined {
  if (check.field.cardinality === "one") return checkValue(value, check, at);
  if (check.field.cardinality === "list") {
    if (!Array.isArray(value)) return undefined;
    if (value.length > check.maxItems) return tooMany(at, value.length, check.maxItems);
    for (const [index, item] of value.entries()) {
      at.push(index);
      const problem = checkValue(item, check, at);
      if (problem) return problem;
      at.pop();
    }
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length > check.maxItems) return tooMany(at, keys.length, check.maxItems);
  for (const key of keys) {
    const keyProblem = stringProblem(key, check.maxLength);
    if (keyProblem) return invalid(at, `has a key that ${keyProblem.message}`, keyProblem.limit);
    at.push(key);
    const problem = checkValue(value[key], check, at);
    if (problem) return problem;
    at.pop();
  }
  return undefined;
}

function checkValue(value: unknown, check: FieldCheck, at: Segment[]): InvalidArgumentError | undefined {
  if (check.field.kind === "message") return checkMessage(value, check.nested(), at);
  if (check.field.kind !== "string" || typeof value !== "string") return undefined;
  const problem = stringProblem(value, check.maxLength, !SECRET_FIELD.test(check.field.name));
  return problem && invalid(at, problem.message, problem.limit);
}

/** Fields whose value an error never quotes, not even an excerpt. */
const SECRET_FIELD = /password|secret|token/i;

/** Length first: a string over its limit is never scanned further. */
function stringProblem(
  value: string,
  maxLength: number,
  quote = true,
): { message: string; limit?: number } | undefined {
  if (value.length > maxLength) {
    const shown = quote ? `: ${excerpt(value)}` : ` (${value.length} characters)`;
    return { message: `is longer than the limit of ${maxLength} characters${shown}`, limit: maxLength };
  }
  const problem = textProblem(value);
  return problem ? { message: problem } : undefined;
}

function tooMany(at: readonly Segment[], count: number, limit: number): InvalidArgumentError {
  return invalid(at, `has ${count} items, over the limit of ${limit}`, limit);
}

function invalid(at: readonly Segment[], problem: string, limit?: number): InvalidArgumentError {
  const field = at.reduce<string>((path, segment) => childPath(path, segment), "");
  return new InvalidArgumentError(`${field} ${problem}`, {
    details: limit === undefined ? { field } : { field, limit },
  });
}

/** A table's own entry only: a field named like `constructor` must not find Object's. */
function own(table: Readonly<Record<string, number>> | undefined, key: string): number | undefined {
  return table && Object.hasOwn(table, key) ? table[key] : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}
