import { describe, expect, it } from "vitest";
import { type Operation, walkOpenApi } from "./openapi.js";
import { createRng } from "./prng.js";
import { failureLines } from "./report.js";
import { buildRestCase, restCategories } from "./restCases.js";
import { harvestVocabulary } from "./vocabulary.js";

const DOCUMENT = {
  openapi: "3.1.0",
  paths: {
    "/api/v1/machines/{id}": {
      get: {
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "string" } },
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 10 } },
        ],
        responses: { 200: { content: { "application/json": { schema: { type: "object" } } } } },
      },
    },
    "/api/v1/things": {
      post: {
        requestBody: {
          content: {
            "application/json": {
              schema: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
            },
          },
        },
        responses: {},
      },
      put: {
        responses: {
          201: {
            content: {
              "application/json": { schema: { type: "object", properties: { size: { type: "integer" } } } },
            },
          },
        },
      },
    },
  },
  components: { schemas: {} },
};

describe("walkOpenApi", () => {
  const { operations } = walkOpenApi(DOCUMENT);
  it("reads parameters and where each body schema comes from", () => {
    expect(
      operations.map((op) => [
        op.method,
        op.path,
        op.pathParams.length,
        op.queryParams.length,
        op.body?.source,
      ]),
    ).toEqual([
      ["GET", "/api/v1/machines/{id}", 1, 1, undefined],
      ["POST", "/api/v1/things", 0, 0, "requestBody"],
      ["PUT", "/api/v1/things", 0, 0, "response-guess"],
    ]);
  });
});

describe("buildRestCase", () => {
  const { operations, components } = walkOpenApi(DOCUMENT);
  const [get, post] = operations as [Operation, Operation, Operation];
  const vocabulary = harvestVocabulary([{ machines: [{ id: "host-1" }] }]);
  const build = (operation: Operation, category: ReturnType<typeof restCategories>[number], seed: number) =>
    buildRestCase(operation, category, { rng: createRng(seed), components, vocabulary });

  it.each([
    ["valid", "/api/v1/machines/host-1"],
    ["path-param", "/api/v1/machines/"],
  ] as const)("%s cases of a path parameter start with %s", (category, prefix) => {
    for (let seed = 1; seed <= 10; seed++)
      expect(build(get, category, seed).path.startsWith(prefix)).toBe(true);
  });

  it("replays the same request from the same seed, for every category", () => {
    for (const operation of [get, post]) {
      for (const category of restCategories(operation)) {
        const a = build(operation, category, 9);
        const b = build(operation, category, 9);
        expect([a.path, a.headers, a.description]).toEqual([b.path, b.headers, b.description]);
        expect(Buffer.from(a.body ?? "").equals(Buffer.from(b.body ?? ""))).toBe(true);
      }
    }
  });

  it("sends a valid body with its required property, as JSON", () => {
    const valid = build(post, "valid", 1);
    expect(valid.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(String(valid.body))).toHaveProperty("name");
  });

  it("splices invalid UTF-8 into a body", () => {
    const body = Buffer.from(build(post, "body-invalid-utf8", 1).body ?? "");
    expect(body.includes(Buffer.from([0xed, 0xa0, 0x80]))).toBe(true);
  });
});

describe("failureLines", () => {
  it("groups an answer seen on many targets, but never hangs", () => {
    const offenders = [
      ...["a", "b", "c", "d"].map((target) => ({
        target,
        answer: "INTERNAL Error deserializing request",
        count: 2,
        examples: ["x"],
      })),
      ...["e", "f", "g", "h"].map((target) => ({
        target,
        answer: "HANG no answer",
        count: 1,
        examples: ["y"],
      })),
    ];
    const lines = failureLines(offenders, 3).map((line) => line.text);
    expect(lines[0]).toMatch(/^INTERNAL Error deserializing request on 4 routes\/methods ×8/);
    expect(lines.filter((line) => line.includes("HANG"))).toHaveLength(4);
  });
});
