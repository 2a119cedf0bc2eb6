import { describe, expect, it } from "vitest";
import { pluginSchemaProblems } from "./pluginSchemaProblems.js";

const where = { prefix: "fabrics.infiniband", owner: "the x InfiniBand fabric", coreKeys: ["fabric"] };
const schema = {
  $id: "https://example.test/x.json",
  type: "object",
  additionalProperties: false,
  required: ["endpoint"],
  properties: { endpoint: { type: "string" }, timeoutMs: { type: "integer", default: 5 } },
};

describe("pluginSchemaProblems", () => {
  it("names each bad key under the section, offering the core's keys and the schema's for an unknown one", () => {
    expect(pluginSchemaProblems(schema, { endpont: "x" }, where)).toEqual([
      "fabrics.infiniband: missing required key endpoint",
      "unknown key fabrics.infiniband.endpont (did you mean endpoint?); allowed: fabric, endpoint, timeoutMs",
    ]);
  });

  it("leaves the section as written (defaults go to a copy) and accepts a good one", () => {
    const section = { endpoint: "https://x" };
    expect(pluginSchemaProblems(schema, section, where)).toEqual([]);
    expect(section).toEqual({ endpoint: "https://x" });
  });

  it("checks against two schemas with the same $id, and names a schema that does not compile", () => {
    expect(pluginSchemaProblems({ ...schema }, { endpoint: 1 }, where)).toEqual([
      "fabrics.infiniband.endpoint: must be a string",
    ]);
    expect(pluginSchemaProblems({ type: "nonsense" }, {}, where)).toEqual([
      expect.stringMatching(
        /^fabrics\.infiniband: the config schema of the x InfiniBand fabric is not valid JSON Schema \(/,
      ),
    ]);
  });
});
