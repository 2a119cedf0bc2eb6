import { describe, expect, it } from "vitest";
import { RawJson } from "./mutations.js";
import { createRng } from "./prng.js";
import { BODY_FIELD_MUTATIONS, mutateBody, type Schema, type SchemaContext, validValue } from "./schema.js";

const context = (seed = 1, vocabulary: Record<string, string[]> = {}): SchemaContext => ({
  rng: createRng(seed),
  components: { Mac: { type: "string", pattern: "^([0-9A-F]{2}:){5}[0-9A-F]{2}$" } },
  vocabulary: new Map(Object.entries(vocabulary)),
});

describe("validValue", () => {
  it.each<[string, Schema, (value: unknown) => boolean]>([
    ["an enum member", { type: "string", enum: ["dpu", "nic"] }, (v) => v === "dpu" || v === "nic"],
    ["a const", { const: 7 }, (v) => v === 7],
    [
      "an integer within bounds",
      { type: "integer", minimum: 5, maximum: 9 },
      (v) => Number.isInteger(v) && (v as number) >= 5 && (v as number) <= 9,
    ],
    [
      "a string of minLength",
      { type: "string", minLength: 10 },
      (v) => typeof v === "string" && v.length >= 10,
    ],
    [
      "a string within maxLength",
      { type: "string", maxLength: 2 },
      (v) => typeof v === "string" && v.length <= 2,
    ],
    ["a pattern from the candidates", { $ref: "#/components/schemas/Mac" }, (v) => v === "AA:BB:CC:DD:EE:01"],
    ["a date-time", { type: "string", format: "date-time" }, (v) => !Number.isNaN(Date.parse(String(v)))],
    ["the non-null member of a nullable type", { type: ["string", "null"] }, (v) => typeof v === "string"],
    ["a boolean", { type: "boolean" }, (v) => typeof v === "boolean"],
    [
      "an array within maxItems",
      { type: "array", items: { type: "integer" }, maxItems: 2 },
      (v) => Array.isArray(v) && v.length <= 2,
    ],
    [
      "one of oneOf",
      { oneOf: [{ type: "boolean" }, { type: "null" }] },
      (v) => v === null || typeof v === "boolean",
    ],
  ])("gives %s", (_, schema, accepts) => {
    for (let seed = 1; seed <= 20; seed++) expect(accepts(validValue(schema, context(seed)))).toBe(true);
  });

  it("always writes required properties, and takes names from the vocabulary", () => {
    const schema: Schema = {
      type: "object",
      required: ["bmcMac"],
      properties: { bmcMac: { type: "string" }, note: { type: "string" } },
    };
    for (let seed = 1; seed <= 20; seed++) {
      const value = validValue(schema, context(seed, { bmcmac: ["0C:42:A1:00:00:01"] })) as Record<
        string,
        unknown
      >;
      expect(value.bmcMac).toBe("0C:42:A1:00:00:01");
    }
  });

  it("stops at a recursive schema's depth limit", () => {
    const components = {
      Node: {
        type: "object",
        required: ["child"],
        properties: { child: { $ref: "#/components/schemas/Node" } },
      },
    };
    const value = validValue({ $ref: "#/components/schemas/Node" }, { ...context(), components });
    expect(JSON.stringify(value).length).toBeLessThan(200);
  });
});

describe("mutateBody", () => {
  const schema: Schema = {
    type: "object",
    required: ["name", "count"],
    properties: { name: { type: "string" }, count: { type: "integer" } },
  };
  const base = () => ({ name: "x", count: 1 });

  it.each(BODY_FIELD_MUTATIONS)("%s changes the body and says how", (kind) => {
    for (let seed = 1; seed <= 10; seed++) {
      const mutated = mutateBody(base(), schema, kind, context(seed));
      expect(mutated.label).not.toBe("");
      expect(JSON.stringify(mutated.value instanceof RawJson ? mutated.value.raw : mutated.value)).not.toBe(
        JSON.stringify(base()),
      );
    }
  });

  it("drops a required property for missing-required", () => {
    const mutated = mutateBody(base(), schema, "missing-required", context(4));
    expect(Object.keys(mutated.value as object)).toHaveLength(1);
    expect(mutated.label).toMatch(/^missing required body\.(name|count)$/);
  });

  it("adds __proto__ as an own key, not a prototype", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const mutated = mutateBody(base(), schema, "extra-property", context(seed));
      expect(Object.getPrototypeOf(mutated.value)).toBe(Object.prototype);
    }
  });

  it("replaces a non-object body whole", () => {
    expect(mutateBody([1, 2], undefined, "null-field", context()).value).toBeNull();
  });
});
