import { collectRegistrations } from "@racksmith/core";
import { describe, expect, it } from "vitest";
import plugin from "../index.js";
import { parseTest } from "../tests/index.js";
import { hostTestRules } from "./hostTestRules.js";

describe("the plugin's host test rules", () => {
  it("are what the plugin registers, and nothing else", async () => {
    const registered = await collectRegistrations(plugin);
    expect(registered.hostTestRules).toEqual([hostTestRules]);
    expect([registered.validationRunners, registered.skuRules, registered.healthProbes]).toEqual([
      [],
      [],
      [],
    ]);
  });

  it("carry built-in tests with unique ids, each a test an operator could have added", () => {
    const ids = hostTestRules.builtInTests.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const test of hostTestRules.builtInTests) {
      const { version: _v, verified: _ve, ...fields } = test;
      expect(parseTest(fields)).toEqual({ ...test, version: "v1", verified: false });
    }
    // Unverified built-ins exist (a template) and never run automatically.
    expect(hostTestRules.builtInTests.some((t) => !t.verified)).toBe(true);
  });
});
