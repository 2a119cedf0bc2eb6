import type { Rng } from "./prng.js";

/*
 * The hostile values the fuzzer sends, each with a label for the report. Pure: no I/O, and every random choice
 * goes through the caller's seeded PRNG, so a seed replays the same inputs.
 */

/** A hostile value and what it is, as the report names it. */
export interface Hostile<T> {
  label: string;
  value: T;
}

/** JSON text spliced verbatim into a body: what `JSON.stringify` cannot write (1e400, deep nesting, …). */
export class RawJson {
  constructor(readonly raw: string) {}
}

/** A JSON value as the fuzzer builds it, possibly with raw spliced parts. */
export type FuzzValue =
  | null
  | boolean
  | number
  | string
  | RawJson
  | FuzzValue[]
  | { [key: string]: FuzzValue };

const KB = 1024;
// Built once: the big strings are reused by every case that picks them.
const HUGE_1KB = "a".repeat(KB);
const HUGE_64KB = "b".repeat(64 * KB);
const HUGE_1MB = "c".repeat(KB * KB);

/** Strings that break naive handlers: sizes, NUL, lone surrogates, traversal, control and exotic unicode. */
export const HOSTILE_STRINGS: readonly Hostile<string>[] = [
  { label: "empty string", value: "" },
  { label: "1 KB string", value: HUGE_1KB },
  { label: "64 KB string", value: HUGE_64KB },
  { label: "1 MB string", value: HUGE_1MB },
  { label: "NUL byte inside", value: "a\u0000b" },
  { label: "only NUL", value: "\u0000" },
  { label: "lone high surrogate", value: "\uD800" },
  { label: "lone low surrogate inside", value: "x\uDC00y" },
  { label: "path traversal", value: "../../etc/passwd" },
  { label: "encoded traversal", value: "%2e%2e%2f%2e%2e%2fetc%2fpasswd" },
  { label: "unicode mix", value: "Ünïcødé ☃ 😀 ﷽ 𝕏" },
  { label: "bidi and zero-width", value: "\u202Eabc\u200B\uFEFF" },
  { label: "control characters", value: "\r\n\t\u001b[31m\u0007" },
  { label: "SQL quote", value: "' OR 1=1 --" },
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal `${x}` is the hostile input.
  { label: "format specifiers", value: "%s%n%x{0}${x}" },
  { label: "__proto__", value: "__proto__" },
  { label: "whitespace only", value: "   " },
  { label: "numeric string", value: "-1" },
  { label: "huge number string", value: "1e309" },
  { label: "4000 emoji", value: "😀".repeat(4000) },
];

/** Values of every other JSON type, for a field that wants a string (or any one type). */
export const WRONG_TYPE_VALUES: readonly Hostile<FuzzValue>[] = [
  { label: "number 0", value: 0 },
  { label: "number -1", value: -1 },
  { label: "float 1.5", value: 1.5 },
  { label: "boolean true", value: true },
  { label: "boolean false", value: false },
  { label: "null", value: null },
  { label: "empty array", value: [] },
  { label: "array of string", value: ["a"] },
  { label: "empty object", value: {} },
  { label: "object", value: { a: 1 } },
  { label: "string", value: "x" },
];

/** Numbers at and past every edge; the raw ones are JSON that parses to Infinity or loses precision. */
export const HOSTILE_NUMBERS: readonly Hostile<FuzzValue>[] = [
  { label: "-1", value: -1 },
  { label: "0", value: 0 },
  { label: "-0", value: new RawJson("-0") },
  { label: "float 0.5", value: 0.5 },
  { label: "2^31", value: 2 ** 31 },
  { label: "2^53+1", value: new RawJson("9007199254740993") },
  { label: "-2^63", value: new RawJson("-9223372036854775808") },
  { label: "1e308", value: 1e308 },
  { label: "-1e308", value: -1e308 },
  { label: "1e400 (Infinity)", value: new RawJson("1e400") },
  { label: "denormal 5e-324", value: 5e-324 },
  { label: "30-digit integer", value: new RawJson("123456789012345678901234567890") },
];

/** Raw (already percent-encoded) path segments: invalid encodings, NUL, traversal, sizes. */
export const HOSTILE_PATH_SEGMENTS: readonly Hostile<string>[] = [
  { label: "%ED%A0%80 (encoded lone surrogate)", value: "%ED%A0%80" },
  { label: "%00", value: "%00" },
  { label: "%zz", value: "%zz" },
  { label: "lone %", value: "%" },
  { label: "truncated %2", value: "%2" },
  { label: "%FF", value: "%FF" },
  { label: "overlong %C0%AF", value: "%C0%AF" },
  { label: "../../etc/passwd", value: "../../etc/passwd" },
  { label: "%2e%2e%2f traversal", value: "%2e%2e%2f%2e%2e%2fetc%2fpasswd" },
  { label: "encoded slash %2F", value: "a%2Fb" },
  { label: "..", value: ".." },
  { label: "encoded unicode", value: "%E2%98%83%F0%9F%98%80" },
  { label: "%u0041 (IIS style)", value: "%u0041" },
  { label: "encoded space", value: "a%20b" },
  { label: "matrix parameter", value: "x;jsessionid=1" },
  { label: "encoded ?#", value: "%3F%23" },
  { label: "-1", value: "-1" },
  { label: "1e309", value: "1e309" },
  { label: "encoded []", value: "%5B%5D" },
  { label: "encoded {}", value: "%7B%7D" },
  { label: "1 KB segment", value: "a".repeat(KB) },
  { label: "64 KB segment", value: "a".repeat(64 * KB) },
  { label: "encoded NUL inside", value: "abc%00def" },
  { label: "__proto__", value: "__proto__" },
];

/** Raw query strings that stress the parser rather than a value: duplicates, brackets, pollution. */
export const HOSTILE_QUERY_SHAPES: readonly Hostile<string>[] = [
  { label: "duplicated key", value: "limit=1&limit=2" },
  { label: "bracket array", value: "limit[]=1&limit[]=2" },
  { label: "__proto__ key", value: "__proto__[x]=1&constructor[prototype][y]=2" },
  { label: "unknown key", value: "fuzzUnknown=1" },
  { label: "empty key and value", value: "=&&=" },
  { label: "invalid encoding", value: "a=%zz&b=%ED%A0%80" },
  { label: "NUL in key", value: "a%00b=1" },
  { label: "1000 keys", value: Array.from({ length: 1000 }, (_, i) => `k${i}=${i}`).join("&") },
  { label: "64 KB value", value: `x=${"q".repeat(64 * KB)}` },
];

/** JSON bodies that must not parse, or parse to something odd. */
export const MALFORMED_JSON: readonly Hostile<string>[] = [
  { label: "unterminated object", value: "{" },
  { label: "missing value", value: '{"a":}' },
  { label: "trailing comma", value: '{"a":1,}' },
  { label: "unterminated array", value: "[1,2" },
  { label: "bare word", value: "nul" },
  { label: "single quotes", value: "{'a':1}" },
  { label: "BOM prefix", value: '\uFEFF{"a":1}' },
  { label: "NaN literal", value: '{"a":NaN}' },
  { label: "two documents", value: '{"a":1}{"b":2}' },
  {
    label: "__proto__ pollution",
    value: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
  },
  { label: "duplicate keys", value: '{"a":1,"a":"2"}' },
  { label: "escaped lone surrogate", value: '{"a":"\\ud800"}' },
  { label: "invalid escape", value: '{"a":"\\x41"}' },
  { label: "raw control char in string", value: '{"a":"\u0001"}' },
  { label: "1 MB of whitespace", value: `${" ".repeat(KB * KB)}{}` },
];

/** Content types a JSON route should refuse (or treat carefully). */
export const HOSTILE_CONTENT_TYPES: readonly Hostile<string | undefined>[] = [
  { label: "no content-type", value: undefined },
  { label: "text/plain", value: "text/plain" },
  { label: "form-urlencoded", value: "application/x-www-form-urlencoded" },
  { label: "multipart without parts", value: "multipart/form-data; boundary=x" },
  { label: "json in utf-16", value: "application/json; charset=utf-16" },
  { label: "json in an unknown charset", value: "application/json; charset=klingon" },
  { label: "xml", value: "application/xml" },
  { label: "upper-case JSON", value: "APPLICATION/JSON" },
  { label: "two types", value: "application/json, text/plain" },
  { label: "garbage", value: ";;;==" },
];

/** Top-level bodies of the wrong JSON type. */
export const WRONG_TOP_LEVEL: readonly Hostile<string>[] = [
  { label: "array body", value: "[]" },
  { label: "string body", value: '"x"' },
  { label: "number body", value: "42" },
  { label: "null body", value: "null" },
  { label: "true body", value: "true" },
  { label: "array of objects", value: '[{"a":1}]' },
];

/** Property names to add as extras: pollution keys, a long name, an empty one. */
export const EXTRA_KEYS: readonly string[] = [
  "__proto__",
  "constructor",
  "fuzzExtra",
  "",
  "k".repeat(KB),
  "\u0000",
];

/** Nested JSON `depth` levels deep, as raw text (no recursion, so any depth is cheap to build). */
export function deepJson(depth: number, kind: "array" | "object"): RawJson {
  return kind === "array"
    ? new RawJson(`${"[".repeat(depth)}${"]".repeat(depth)}`)
    : new RawJson(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`);
}

/** The nesting depths tried: from plausible to parser-breaking. */
export const NESTING_DEPTHS: readonly number[] = [64, 1_000, 10_000, 100_000];

/** The JSON text of a fuzz value; raw parts are spliced verbatim. Iterative callers keep values shallow. */
export function toJsonText(value: FuzzValue): string {
  if (value instanceof RawJson) return value.raw;
  if (value === null || typeof value === "boolean") return String(value);
  // A non-finite number has no JSON form; `null` is what JSON.stringify would write.
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(",")}]`;
  return `{${Object.entries(value)
    .map(([key, item]) => `${JSON.stringify(key)}:${toJsonText(item)}`)
    .join(",")}}`;
}

/** A value of a JSON type other than `current`'s. */
export function wrongTypeFor(current: FuzzValue, rng: Rng): Hostile<FuzzValue> {
  const kind = jsonKind(current);
  const others = WRONG_TYPE_VALUES.filter((candidate) => jsonKind(candidate.value) !== kind);
  return rng.pick(others);
}

/** The JSON type of a value, as JSON Schema names it. */
export function jsonKind(value: FuzzValue): "null" | "boolean" | "number" | "string" | "array" | "object" {
  if (value === null) return "null";
  if (value instanceof RawJson) return "number";
  if (Array.isArray(value)) return "array";
  if (typeof value === "object") return "object";
  if (typeof value === "boolean") return "boolean";
  return typeof value === "number" ? "number" : "string";
}

/** Percent-encodes a string for a path segment or query value (every byte outside unreserved). */
export function encodeSegment(value: string): string {
  // encodeURIComponent throws on lone surrogates: encode their UTF-16 code units as WTF-8 by hand instead.
  let out = "";
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16).toUpperCase()}%${(0x80 | ((code >> 6) & 0x3f))
        .toString(16)
        .toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`;
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}

/** Shortens a description for the report: at most `max` characters, with the real length when cut. */
export function truncate(text: string, max = 120): string {
  // Control characters and lone surrogates are written as escapes, so the report prints on any terminal.
  const printable = text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point here.
    /[\u0000-\u001f\u007f]|\p{Surrogate}/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return printable.length <= max ? printable : `${printable.slice(0, max)}… (${text.length} chars)`;
}
