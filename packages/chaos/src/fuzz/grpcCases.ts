import { HOSTILE_STRINGS, type Hostile, truncate } from "./mutations.js";
import type { Rng } from "./prng.js";
import { type Vocabulary, vocabularyKey } from "./schema.js";
import {
  concat,
  doubleField,
  floatField,
  lenField,
  tag,
  utf8,
  varint,
  varintField,
  WIRE_END_GROUP,
  WIRE_FIXED32,
  WIRE_FIXED64,
  WIRE_LEN,
  WIRE_START_GROUP,
  WIRE_VARINT,
  zigzag,
} from "./wire.js";

/** A message field as the descriptor says (`type` is `TYPE_STRING`, …; `typeName` a full name for messages). */
export interface FieldShape {
  name: string;
  number: number;
  repeated: boolean;
  type: string;
  typeName: string;
}

export interface MessageShape {
  fullName: string;
  fields: FieldShape[];
}

/** A unary method: its call path (`/racksmith.v1.Inventory/GetMachine`) and request message. */
export interface MethodShape {
  /** `racksmith.v1.Inventory/GetMachine`, how the report names it. */
  name: string;
  path: string;
  requestType: string;
}

/** Finds a message by full name (no leading dot). */
export type MessageLookup = (fullName: string) => MessageShape | undefined;

/** One gRPC call to make: raw request bytes and what they try. */
export interface GrpcCase {
  method: string;
  path: string;
  bytes: Uint8Array;
  description: string;
}

export const GRPC_CATEGORIES = [
  "valid",
  "string-hostile",
  "invalid-utf8",
  "number-hostile",
  "repeated-hostile",
  "wrong-wire-type",
  "unknown-fields",
  "malformed-bytes",
  "empty",
  "deep-nesting",
] as const;
export type GrpcCategory = (typeof GRPC_CATEGORIES)[number];

export interface GrpcCaseContext {
  rng: Rng;
  lookup: MessageLookup;
  vocabulary: Vocabulary;
}

const MAX_DEPTH = 4;
const VARINT_TYPES = new Set([
  "TYPE_INT32",
  "TYPE_INT64",
  "TYPE_UINT32",
  "TYPE_UINT64",
  "TYPE_SINT32",
  "TYPE_SINT64",
  "TYPE_BOOL",
  "TYPE_ENUM",
]);
const NUMBER_TYPES = new Set([
  ...VARINT_TYPES,
  "TYPE_FIXED32",
  "TYPE_SFIXED32",
  "TYPE_FIXED64",
  "TYPE_SFIXED64",
  "TYPE_DOUBLE",
  "TYPE_FLOAT",
]);

/** A field's one valid-ish encoding (tag included). */
function validField(field: FieldShape, context: GrpcCaseContext, depth: number): Uint8Array {
  const { rng } = context;
  switch (field.type) {
    case "TYPE_STRING": {
      const known = context.vocabulary.get(vocabularyKey(field.name));
      return lenField(field.number, utf8(known?.length ? rng.pick(known) : `fuzz-${rng.int(1000)}`));
    }
    case "TYPE_BYTES":
      return lenField(field.number, Uint8Array.from([rng.int(256), rng.int(256), rng.int(256)]));
    case "TYPE_BOOL":
      return varintField(field.number, rng.int(2));
    case "TYPE_SINT32":
    case "TYPE_SINT64":
      return varintField(field.number, zigzag(rng.int(200) - 100));
    case "TYPE_DOUBLE":
      return doubleField(field.number, rng.next() * 100);
    case "TYPE_FLOAT":
      return floatField(field.number, rng.next() * 100);
    case "TYPE_FIXED32":
    case "TYPE_SFIXED32":
      return concat([tag(field.number, WIRE_FIXED32), Uint8Array.from([rng.int(100), 0, 0, 0])]);
    case "TYPE_FIXED64":
    case "TYPE_SFIXED64":
      return concat([tag(field.number, WIRE_FIXED64), Uint8Array.from([rng.int(100), 0, 0, 0, 0, 0, 0, 0])]);
    case "TYPE_MESSAGE": {
      const nested = context.lookup(field.typeName.replace(/^\./, ""));
      return lenField(
        field.number,
        nested && depth < MAX_DEPTH ? encodeMessage(nested, context, depth + 1) : new Uint8Array(),
      );
    }
    default:
      // Every integer type and enums: a small non-negative varint.
      return varintField(field.number, rng.int(VARINT_TYPES.has(field.type) ? 5 : 100));
  }
}

/** A valid-ish message: most fields present, repeated ones with 0–2 elements. */
export function encodeMessage(shape: MessageShape, context: GrpcCaseContext, depth = 0): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const field of shape.fields) {
    if (!context.rng.chance(depth === 0 ? 0.85 : 0.6)) continue;
    const count = field.repeated ? context.rng.int(3) : 1;
    for (let i = 0; i < count; i++) parts.push(validField(field, context, depth));
  }
  return concat(parts);
}

/** Where a mutation lands: a chain of message fields, ending at the mutated field. */
type FieldPath = FieldShape[];

/** A random field matching `accepts`, at the top level or inside a message field (up to MAX_DEPTH). */
function chooseField(
  shape: MessageShape,
  accepts: (field: FieldShape) => boolean,
  context: GrpcCaseContext,
  depth = 0,
): FieldPath | undefined {
  const options: FieldPath[] = shape.fields.filter(accepts).map((field) => [field]);
  if (depth < MAX_DEPTH) {
    for (const field of shape.fields) {
      if (field.type !== "TYPE_MESSAGE") continue;
      const nested = context.lookup(field.typeName.replace(/^\./, ""));
      // A cheap look one level down keeps the choice among paths that can end somewhere.
      if (nested?.fields.some(accepts) || nested?.fields.some((f) => f.type === "TYPE_MESSAGE")) {
        const deeper = chooseField(nested, accepts, context, depth + 1);
        if (deeper) options.push([field, ...deeper]);
      }
    }
  }
  return options.length > 0 ? context.rng.pick(options) : undefined;
}

/** The message with the field at `path` replaced by `replacement` (its whole encoding, tag included). */
function encodeWith(
  shape: MessageShape,
  path: FieldPath,
  replacement: Uint8Array,
  context: GrpcCaseContext,
  depth = 0,
): Uint8Array {
  const [head, ...rest] = path;
  const parts: Uint8Array[] = [];
  for (const field of shape.fields) {
    if (field === head) continue;
    if (context.rng.chance(0.6)) parts.push(validField(field, context, depth));
  }
  if (head && rest.length === 0) parts.push(replacement);
  else if (head) {
    const nested = context.lookup(head.typeName.replace(/^\./, ""));
    parts.push(
      lenField(head.number, nested ? encodeWith(nested, rest, replacement, context, depth + 1) : replacement),
    );
  }
  return concat(parts);
}

const describePath = (path: FieldPath): string => path.map((field) => field.name).join(".");

/** Hostile varints: -1 (ten bytes), 2^64-1, 2^63, 2^32, 2^31, and an eleven-byte overlong one. */
const HOSTILE_VARINTS: readonly Hostile<Uint8Array>[] = [
  { label: "-1 (10-byte varint)", value: varint(-1) },
  { label: "2^64-1", value: varint(2n ** 64n - 1n) },
  { label: "2^63", value: varint(2n ** 63n) },
  { label: "2^32", value: varint(2n ** 32n) },
  { label: "2^31", value: varint(2n ** 31n) },
  { label: "-2^31", value: varint(-(2 ** 31)) },
  { label: "overlong 11-byte varint", value: Uint8Array.from([...Array(10).fill(0xff), 0x01]) },
];

const HOSTILE_DOUBLES: readonly number[] = [Number.NaN, Infinity, -Infinity, -0, 1e308, 5e-324, -1];

const INVALID_UTF8: readonly Hostile<Uint8Array>[] = [
  { label: "ED A0 80 (lone surrogate)", value: Uint8Array.from([0xed, 0xa0, 0x80]) },
  { label: "FF FE", value: Uint8Array.from([0xff, 0xfe]) },
  { label: "overlong C0 AF", value: Uint8Array.from([0xc0, 0xaf]) },
  { label: "NUL inside", value: Uint8Array.from([0x61, 0x00, 0x62]) },
  { label: "truncated 4-byte sequence", value: Uint8Array.from([0xf0, 0x9f, 0x98]) },
];

/** Whole-message byte strings no valid encoder writes (built on demand: one of them is 5 MB). */
function malformedMessages(valid: Uint8Array, rng: Rng): Array<Hostile<() => Uint8Array>> {
  return [
    {
      label: "valid message cut short",
      value: () => valid.slice(0, Math.max(0, valid.length - 1 - rng.int(3))),
    },
    { label: "64 random bytes", value: () => Uint8Array.from({ length: 64 }, () => rng.int(256)) },
    {
      label: "varint overflow after a tag",
      value: () => concat([tag(1, WIRE_VARINT), Uint8Array.from(Array(11).fill(0xff))]),
    },
    { label: "length past the end", value: () => concat([tag(1, WIRE_LEN), varint(1_000), utf8("abc")]) },
    { label: "length 2^32", value: () => concat([tag(1, WIRE_LEN), varint(2n ** 32n), utf8("abc")]) },
    { label: "field number 0", value: () => Uint8Array.from([0x02, 0x01, 0x61]) },
    { label: "wire type 6", value: () => Uint8Array.from([(1 << 3) | 6, 0x00]) },
    { label: "wire type 7", value: () => Uint8Array.from([(1 << 3) | 7, 0x00]) },
    { label: "start group without end", value: () => concat([tag(1, WIRE_START_GROUP), varintField(2, 1)]) },
    { label: "end group without start", value: () => tag(1, WIRE_END_GROUP) },
    { label: "truncated fixed64", value: () => concat([tag(1, WIRE_FIXED64), Uint8Array.from([1, 2, 3])]) },
    // Past grpc-js's default 4 MiB receive limit: the answer should be RESOURCE_EXHAUSTED.
    { label: "5 MB message", value: () => lenField(9_999, new Uint8Array(5 * 1024 * 1024)) },
  ];
}

/** The case of `category` for `method`; `context.rng` makes every choice. */
export function buildGrpcCase(
  method: MethodShape,
  category: GrpcCategory,
  context: GrpcCaseContext,
): GrpcCase {
  const { rng } = context;
  const shape = context.lookup(method.requestType) ?? { fullName: method.requestType, fields: [] };
  const made = (bytes: Uint8Array, detail: string): GrpcCase => ({
    method: method.name,
    path: method.path,
    bytes,
    description: truncate(`${category}: ${detail}`, 200),
  });
  const mutateField = (
    accepts: (field: FieldShape) => boolean,
    replace: (field: FieldShape) => Hostile<Uint8Array>,
  ) => {
    const path = chooseField(shape, accepts, context);
    const last = path?.at(-1);
    if (!path || !last) return undefined;
    const replacement = replace(last);
    return made(
      encodeWith(shape, path, replacement.value, context),
      `${describePath(path)} = ${replacement.label}`,
    );
  };
  const fallback = () => unknownFields(shape, context, made);
  switch (category) {
    case "valid": {
      const bytes = encodeMessage(shape, context);
      return made(bytes, `valid-ish ${shape.fullName} (${bytes.length} bytes)`);
    }
    case "string-hostile":
      return (
        mutateField(
          (f) => f.type === "TYPE_STRING",
          (f) => {
            const chosen = rng.pick(HOSTILE_STRINGS);
            return { label: chosen.label, value: lenField(f.number, utf8(chosen.value)) };
          },
        ) ?? fallback()
      );
    case "invalid-utf8":
      return (
        mutateField(
          (f) => f.type === "TYPE_STRING",
          (f) => {
            const chosen = rng.pick(INVALID_UTF8);
            return { label: `invalid UTF-8 ${chosen.label}`, value: lenField(f.number, chosen.value) };
          },
        ) ?? fallback()
      );
    case "number-hostile":
      return (
        mutateField(
          (f) => NUMBER_TYPES.has(f.type),
          (f) => hostileNumber(f, rng),
        ) ?? fallback()
      );
    case "repeated-hostile":
      return (
        mutateField(
          (f) => f.repeated,
          (f) => {
            const count = rng.pick([1_000, 10_000]);
            const one = validField(f, context, MAX_DEPTH);
            return { label: `${count} elements`, value: concat(Array<Uint8Array>(count).fill(one)) };
          },
        ) ?? fallback()
      );
    case "wrong-wire-type":
      return (
        mutateField(
          () => true,
          (f) => wrongWireType(f, rng),
        ) ?? fallback()
      );
    case "unknown-fields":
      return fallback();
    case "malformed-bytes": {
      const chosen = rng.pick(malformedMessages(encodeMessage(shape, context), rng));
      return made(chosen.value(), chosen.label);
    }
    case "empty":
      return made(new Uint8Array(), "empty message (all defaults)");
    case "deep-nesting": {
      const depth = rng.pick([100, 1_000, 100_000]);
      if (rng.chance(0.5)) {
        // Nested groups: a decoder that skips them recursively runs out of stack.
        const open = tag(30_001, WIRE_START_GROUP);
        const close = tag(30_001, WIRE_END_GROUP);
        const bytes = concat([
          ...Array<Uint8Array>(depth).fill(open),
          ...Array<Uint8Array>(depth).fill(close),
        ]);
        return made(bytes, `unknown groups nested ${depth} deep`);
      }
      // Nested length-delimited unknown fields, built inside out (capped: each level adds bytes).
      let inner: Uint8Array = utf8("x");
      const levels = Math.min(depth, 2_000);
      for (let i = 0; i < levels; i++) inner = lenField(30_002, inner);
      return made(inner, `unknown messages nested ${levels} deep`);
    }
  }
}

function hostileNumber(field: FieldShape, rng: Rng): Hostile<Uint8Array> {
  if (field.type === "TYPE_DOUBLE" || field.type === "TYPE_FLOAT") {
    const value = rng.pick(HOSTILE_DOUBLES);
    return {
      label: `${field.type === "TYPE_DOUBLE" ? "double" : "float"} ${Object.is(value, -0) ? "-0" : value}`,
      value:
        field.type === "TYPE_DOUBLE" ? doubleField(field.number, value) : floatField(field.number, value),
    };
  }
  if (!VARINT_TYPES.has(field.type)) {
    const bytes = Uint8Array.from(Array(field.type.includes("64") ? 8 : 4).fill(0xff));
    return {
      label: "all-ones fixed",
      value: concat([tag(field.number, field.type.includes("64") ? WIRE_FIXED64 : WIRE_FIXED32), bytes]),
    };
  }
  const chosen = rng.pick(HOSTILE_VARINTS);
  return { label: chosen.label, value: concat([tag(field.number, WIRE_VARINT), chosen.value]) };
}

function wrongWireType(field: FieldShape, rng: Rng): Hostile<Uint8Array> {
  const options: Hostile<Uint8Array>[] = [
    { label: "as varint", value: varintField(field.number, 1) },
    { label: "as length-delimited", value: lenField(field.number, utf8("abc")) },
    { label: "as fixed32", value: concat([tag(field.number, WIRE_FIXED32), Uint8Array.from([1, 0, 0, 0])]) },
    { label: "as fixed64", value: doubleField(field.number, 1) },
    {
      label: "as group",
      value: concat([tag(field.number, WIRE_START_GROUP), tag(field.number, WIRE_END_GROUP)]),
    },
  ];
  const expected =
    field.type === "TYPE_STRING" || field.type === "TYPE_BYTES" || field.type === "TYPE_MESSAGE"
      ? "as length-delimited"
      : VARINT_TYPES.has(field.type)
        ? "as varint"
        : field.type.includes("64") || field.type === "TYPE_DOUBLE"
          ? "as fixed64"
          : "as fixed32";
  const chosen = rng.pick(options.filter((option) => option.label !== expected));
  return { label: `${field.type.replace("TYPE_", "").toLowerCase()} ${chosen.label}`, value: chosen.value };
}

function unknownFields(
  shape: MessageShape,
  context: GrpcCaseContext,
  made: (bytes: Uint8Array, detail: string) => GrpcCase,
): GrpcCase {
  const { rng } = context;
  const numbers = [1_000, 19_000, 19_999, 536_870_911, Math.max(0, ...shape.fields.map((f) => f.number)) + 1];
  const number = rng.pick(numbers);
  const extra = rng.pick<Hostile<Uint8Array>>([
    { label: "varint", value: varintField(number, 7) },
    { label: "string", value: lenField(number, utf8("unknown")) },
    { label: "fixed64", value: doubleField(number, 1) },
  ]);
  return made(
    concat([encodeMessage(shape, context), extra.value]),
    `unknown field ${number} (${extra.label})`,
  );
}
