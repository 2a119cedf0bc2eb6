import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_ARRAY_ITEMS, DEFAULT_MAX_STRING_LENGTH } from "../input/index.js";
import { withDefaultLimits } from "./defaultLimits.js";

const S = DEFAULT_MAX_STRING_LENGTH;
const A = DEFAULT_MAX_ARRAY_ITEMS;

describe("withDefaultLimits", () => {
  it.each([
    ["a string", { type: "string" }, { type: "string", maxLength: S }],
    ["a nullable string", { type: ["string", "null"] }, { type: ["string", "null"], maxLength: S }],
    ["a string with its own limit", { type: "string", maxLength: 17 }, { type: "string", maxLength: 17 }],
    [
      "an array and its items",
      { type: "array", items: { type: "string" } },
      { type: "array", maxItems: A, items: { type: "string", maxLength: S } },
    ],
    ["an array with its own limit", { type: "array", maxItems: 3 }, { type: "array", maxItems: 3 }],
    [
      "properties, nested",
      { type: "object", properties: { a: { type: "object", properties: { b: { type: "string" } } } } },
      {
        type: "object",
        properties: { a: { type: "object", properties: { b: { type: "string", maxLength: S } } } },
      },
    ],
    [
      "anyOf branches",
      { anyOf: [{ type: "string" }, { type: "integer" }] },
      { anyOf: [{ type: "string", maxLength: S }, { type: "integer" }] },
    ],
    [
      "a map's values and keys",
      { type: "object", additionalProperties: { type: "string" }, propertyNames: { type: "string" } },
      {
        type: "object",
        additionalProperties: { type: "string", maxLength: S },
        propertyNames: { type: "string", maxLength: S },
      },
    ],
    [
      "additionalProperties: false",
      { type: "object", additionalProperties: false },
      { type: "object", additionalProperties: false },
    ],
    [
      "values left as they are",
      { type: "string", enum: ["a"], default: "a", examples: [{ type: "string" }] },
      { type: "string", enum: ["a"], default: "a", examples: [{ type: "string" }], maxLength: S },
    ],
    [
      "no type: nothing to bound",
      { maxLength: 5, properties: { a: { maxItems: 2 } } },
      { maxLength: 5, properties: { a: { maxItems: 2 } } },
    ],
    ["not a schema", true, true],
  ])("%s", (_, schema, expected) => {
    expect(withDefaultLimits(schema)).toEqual(expected);
  });

  it("leaves the schema it is given unchanged (routes share schema constants with responses)", () => {
    const shared = { type: "object", properties: { name: { type: "string" } } };
    const before = structuredClone(shared);
    withDefaultLimits(shared);
    expect(shared).toEqual(before);
  });
});
