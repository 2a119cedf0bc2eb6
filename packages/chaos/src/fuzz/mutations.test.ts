import { describe, expect, it } from "vitest";
import {
  deepJson,
  encodeSegment,
  type FuzzValue,
  HOSTILE_STRINGS,
  jsonKind,
  RawJson,
  toJsonText,
  truncate,
  wrongTypeFor,
} from "./mutations.js";
import { caseRng, createRng } from "./prng.js";

describe("createRng", () => {
  it("replays the same stream from the same seed, and another from another seed", () => {
    const draw = (seed: number) =>
      Array.from(
        { length: 5 },
        (() => {
          const rng = createRng(seed);
          return () => rng.int(1_000_000);
        })(),
      );
    expect(draw(1)).toEqual(draw(1));
    expect(draw(1)).not.toEqual(draw(2));
  });

  it("gives unrelated streams to neighbouring cases", () => {
    expect(caseRng(7, 0).next()).not.toBe(caseRng(7, 1).next());
    expect(caseRng(7, 3).next()).toBe(caseRng(7, 3).next());
  });
});

describe("toJsonText", () => {
  it.each<[string, FuzzValue, string]>([
    ["a string with a lone surrogate (escaped)", "\uD800", '"\\ud800"'],
    ["a raw number JSON.stringify cannot write", new RawJson("1e400"), "1e400"],
    ["a non-finite number as null", Number.POSITIVE_INFINITY, "null"],
    ["nested raw parts", { a: [new RawJson("-0"), null, true] }, '{"a":[-0,null,true]}'],
    ["a __proto__ own key", JSON.parse('{"__proto__":1}') as FuzzValue, '{"__proto__":1}'],
  ])("writes %s", (_, value, text) => {
    expect(toJsonText(value)).toBe(text);
  });
});

describe("deepJson", () => {
  it.each([
    ["array", 3, "[[[]]]"],
    ["object", 2, '{"a":{"a":1}}'],
  ] as const)("nests %s %i deep", (kind, depth, text) => {
    expect(deepJson(depth, kind).raw).toBe(text);
  });

  it("builds 100,000 levels without recursion", () => {
    expect(deepJson(100_000, "array").raw).toHaveLength(200_000);
  });
});

describe("encodeSegment", () => {
  it.each([
    ["plain", "abc", "abc"],
    ["a slash and a space", "a/b c", "a%2Fb%20c"],
    ["NUL", "\u0000", "%00"],
    ["a lone high surrogate, as WTF-8", "\uD800", "%ED%A0%80"],
    ["a paired surrogate, as UTF-8", "😀", "%F0%9F%98%80"],
  ])("encodes %s", (_, value, encoded) => {
    expect(encodeSegment(value)).toBe(encoded);
  });
});

describe("wrongTypeFor", () => {
  it.each<[FuzzValue]>([["text"], [1], [true], [null], [[1]], [{ a: 1 }]])(
    "never returns the type of %j",
    (value) => {
      const rng = createRng(3);
      for (let i = 0; i < 50; i++) expect(jsonKind(wrongTypeFor(value, rng).value)).not.toBe(jsonKind(value));
    },
  );
});

describe("HOSTILE_STRINGS", () => {
  it("has the sizes and characters the fuzzer promises", () => {
    const lengths = HOSTILE_STRINGS.map((s) => s.value.length);
    expect(lengths).toEqual(expect.arrayContaining([1024, 64 * 1024, 1024 * 1024]));
    expect(HOSTILE_STRINGS.some((s) => s.value.includes("\u0000"))).toBe(true);
    expect(HOSTILE_STRINGS.some((s) => s.value === "\uD800")).toBe(true);
  });
});

describe("truncate", () => {
  it.each([
    ["short text as is", "abc", 10, "abc"],
    ["long text cut with its length", "abcdef", 3, "abc… (6 chars)"],
    ["control characters escaped", "a\u0000b", 20, "a\\u0000b"],
    ["lone surrogates escaped", "x\uD800", 20, "x\\ud800"],
  ])("writes %s", (_, text, max, out) => {
    expect(truncate(text, max)).toBe(out);
  });
});
