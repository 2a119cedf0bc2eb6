import { RacksmithError } from "@racksmith/core";
import { describe, expect, it } from "vitest";
import {
  assertStorableText,
  childPath,
  excerpt,
  fieldPath,
  findBadText,
  MAX_NESTING_DEPTH,
  quoted,
  textProblem,
} from "./index.js";

const MEGABYTE = "x".repeat(1024 * 1024);

describe("textProblem", () => {
  it.each([
    ["plain text", "host-1", undefined],
    ["an empty string", "", undefined],
    ["a surrogate pair (an emoji)", "rack 🚀", undefined],
    ["other control characters (stored fine)", "a\tb\u0001", undefined],
    ["a NUL byte", "a\u0000b", "contains a NUL byte"],
    ["a lone high surrogate", "ab\uD800", "contains a lone UTF-16 surrogate (U+D800) at index 2"],
    ["a lone low surrogate", "\uDC00", "contains a lone UTF-16 surrogate (U+DC00) at index 0"],
    ["two high surrogates", "\uD83D\uD83D\uDE80", "contains a lone UTF-16 surrogate (U+D83D) at index 0"],
  ])("%s → %s", (_, value, problem) => {
    expect(textProblem(value)).toBe(problem);
  });
});

describe("excerpt and quoted", () => {
  it.each([
    ["short text, as it is", excerpt("BMC-1"), "BMC-1"],
    ["40 characters, whole", excerpt("y".repeat(40)), "y".repeat(40)],
    ["41 characters, cut", excerpt("y".repeat(41)), `${"y".repeat(40)}… (41 characters)`],
    ["a megabyte, cut", excerpt(MEGABYTE), `${"x".repeat(40)}… (1048576 characters)`],
    ["a longer cut", excerpt(MEGABYTE, 5), "xxxxx… (1048576 characters)"],
    ["control characters and surrogates replaced", excerpt("a\u0000b\nc\uD800"), "a\uFFFDb\uFFFDc\uFFFD"],
    ["a string as JSON", quoted("nope"), '"nope"'],
    ["a number as JSON", quoted(42), "42"],
    ["undefined", quoted(undefined), "undefined"],
    ["a NUL as its JSON escape", quoted("a\u0000"), '"a\\u0000"'],
    ["a megabyte as JSON, cut", quoted(MEGABYTE), `"${"x".repeat(39)}… (1048578 characters)`],
  ])("%s", (_, actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe("childPath and fieldPath", () => {
  it.each([
    ["a key", childPath("body", "mac"), "body.mac"],
    ["an index", childPath("body.interfaces", 0), "body.interfaces[0]"],
    ["a key at the top", childPath("", "mac"), "mac"],
    [
      "a huge key, cut",
      childPath("body.labels", MEGABYTE),
      `body.labels.${"x".repeat(64)}… (1048576 characters)`,
    ],
    ["the root pointer", fieldPath("body", ""), "body"],
    [
      "a nested pointer",
      fieldPath("body", "/config/network/interfaces/0/network"),
      "body.config.network.interfaces[0].network",
    ],
    ["an escaped pointer", fieldPath("body", "/labels/a~1b~0c"), "body.labels.a/b~c"],
    ["a query pointer", fieldPath("querystring", "/historyLimit"), "querystring.historyLimit"],
  ])("%s → %s", (_, actual, expected) => {
    expect(actual).toBe(expected);
  });
});

/** `depth` arrays, each holding the next, around one string. */
function nested(depth: number): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe("findBadText and assertStorableText", () => {
  it.each([
    ["good text everywhere", { a: ["x", { b: "y" }], n: 1, t: true, z: null }, "body", undefined],
    ["a NUL in a path parameter", { id: "a\u0000b" }, "params", ["params.id", "contains a NUL byte"]],
    [
      "a lone surrogate deep in a body",
      { interfaces: [{ device: "ok" }, { device: "bad\uDC00" }] },
      "body",
      ["body.interfaces[1].device", "contains a lone UTF-16 surrogate (U+DC00) at index 3"],
    ],
    [
      "a NUL in a key",
      { labels: { "k\u0000": "v" } },
      "body",
      ["body.labels.k\uFFFD", "has a key that contains a NUL byte"],
    ],
    [
      "a NUL under a huge key: the path quotes the key's start",
      { [MEGABYTE]: "\u0000" },
      "body",
      [`body.${"x".repeat(64)}… (1048576 characters)`, "contains a NUL byte"],
    ],
    ["a whole string", "a\u0000", "body", ["body", "contains a NUL byte"]],
    [
      "the first of two",
      ["\u0000", "\uD800"],
      "querystring.state",
      ["querystring.state[0]", "contains a NUL byte"],
    ],
    ["no value", undefined, "body", undefined],
    ["nesting at the limit", nested(MAX_NESTING_DEPTH), "body", undefined],
    [
      "nesting past the limit",
      nested(MAX_NESTING_DEPTH + 1),
      "body",
      [`body${"[0]".repeat(MAX_NESTING_DEPTH)}`, `is nested deeper than ${MAX_NESTING_DEPTH} levels`],
    ],
    // Deep enough to overflow a recursive walk's stack.
    [
      "nesting 100,000 deep",
      nested(100_000),
      "body",
      [`body${"[0]".repeat(MAX_NESTING_DEPTH)}`, `is nested deeper than ${MAX_NESTING_DEPTH} levels`],
    ],
  ])("%s", (_, value, path, expected) => {
    const found = findBadText(value, path);
    expect(found).toEqual(expected ? { field: expected[0], problem: expected[1] } : undefined);
    if (!expected) {
      expect(() => assertStorableText(value, path)).not.toThrow();
      return;
    }
    const thrown = (() => {
      try {
        assertStorableText(value, path);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(RacksmithError);
    expect(thrown).toMatchObject({
      code: "invalid_argument",
      message: `${expected[0]} ${expected[1]}`,
      details: { field: expected[0] },
    });
  });
});
