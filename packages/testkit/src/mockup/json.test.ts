import { describe, expect, it } from "vitest";
import { compileGlob, matchesGlob } from "./globPattern.js";
import { deepMerge, type JsonObject, withoutKeyDeep } from "./json.js";

describe("deepMerge", () => {
  it("merges objects recursively, replaces arrays and scalars, sets null, and mutates nothing", () => {
    const target: JsonObject = { a: { b: 1, c: [1, 2] }, d: "x", e: { f: 1 } };
    const merged = deepMerge(target, { a: { c: [3] }, d: null, e: { g: 2 }, h: true });
    expect(merged).toEqual({ a: { b: 1, c: [3] }, d: null, e: { f: 1, g: 2 }, h: true });
    expect(target).toEqual({ a: { b: 1, c: [1, 2] }, d: "x", e: { f: 1 } });
  });

  it("strips a key at any depth", () => {
    expect(withoutKeyDeep({ k: 1, a: [{ k: 2, b: 3 }], c: { k: 4 } }, "k")).toEqual({ a: [{ b: 3 }], c: {} });
  });
});

describe("compileGlob", () => {
  it.each([
    ["/redfish/v1/Systems", "/redfish/v1/systems/", true],
    ["/redfish/v1/Systems", "/redfish/v1/Systems/1", false],
    ["/redfish/v1/Systems/*", "/redfish/v1/Systems/1", true],
    ["/redfish/v1/Systems/*", "/redfish/v1/Systems/1/Bios", false],
    ["/redfish/v1/Systems/**", "/redfish/v1/Systems", true],
    ["/redfish/v1/Systems/**", "/redfish/v1/Systems/1/Bios", true],
    ["/redfish/v1/**/Bios", "/redfish/v1/Systems/1/Bios", true],
    ["/redfish/v1/**/Bios", "/redfish/v1/Bios", true],
    ["/redfish/v1/$metadata", "/redfish/v1/$metadata", true],
    ["/redfish/v1/Sys.ems", "/redfish/v1/Systems", false],
  ])("%s against %s → %s", (pattern, path, expected) => {
    expect(matchesGlob(compileGlob(pattern), path)).toBe(expected);
  });
});
