import { describe, expect, it } from "vitest";
import type { JsonObject } from "../json.js";
import { mergePatch } from "./patchArrays.js";

const ntp = (...servers: string[]): JsonObject => ({ NTPServers: servers });

describe("mergePatch", () => {
  it.each<[string, JsonObject, JsonObject, JsonObject]>([
    ["{} keeps an element", ntp("a", "b"), { NTPServers: [{}, "B"] }, ntp("a", "B")],
    ["null removes an element", ntp("a", "b", "c"), { NTPServers: [{}, null, {}] }, ntp("a", "c")],
    ["elements past the end of the request are removed", ntp("a", "b", "c"), { NTPServers: [{}] }, ntp("a")],
    ["an empty array empties the property", ntp("a", "b"), { NTPServers: [] }, ntp()],
    ["elements past the current end are added", ntp("a"), { NTPServers: [{}, "b", "c"] }, ntp("a", "b", "c")],
    [
      "{} and null past the current end add nothing",
      ntp("a"),
      { NTPServers: [{}, {}, null, "d"] },
      ntp("a", "d"),
    ],
    ["a scalar replaces an element", ntp("a", "b"), { NTPServers: ["x", "y"] }, ntp("x", "y")],
    [
      "an array over null is merged against no elements",
      { NTPServers: null },
      { NTPServers: [{}, "a"] },
      ntp("a"),
    ],
    [
      "an array over a missing property is merged against no elements",
      {},
      { NTPServers: [null, "a"] },
      ntp("a"),
    ],
    [
      "an object merges into an object element",
      { Users: [{ Name: "a", Role: "x" }, { Name: "b" }] },
      { Users: [{ Role: "y" }, {}] },
      { Users: [{ Name: "a", Role: "y" }, { Name: "b" }] },
    ],
    [
      "an object replaces a scalar element",
      { Items: ["a", "b"] },
      { Items: [{ Name: "x" }, {}] },
      { Items: [{ Name: "x" }, "b"] },
    ],
    [
      "nested arrays inside object elements follow the same rules",
      { Ifaces: [{ Addresses: ["1", "2", "3"], Up: true }] },
      { Ifaces: [{ Addresses: [{}, null] }] },
      { Ifaces: [{ Addresses: ["1"], Up: true }] },
    ],
    [
      "objects merge recursively and null sets null",
      { Boot: { Target: "None", Mode: "UEFI" }, AssetTag: "x" },
      { Boot: { Target: "Pxe" }, AssetTag: null },
      { Boot: { Target: "Pxe", Mode: "UEFI" }, AssetTag: null },
    ],
    [
      "arrays inside nested objects follow the rules",
      { Boot: { BootOrder: ["Boot0001", "Boot0002", "Boot0003"] } },
      { Boot: { BootOrder: [{}, {}] } },
      { Boot: { BootOrder: ["Boot0001", "Boot0002"] } },
    ],
    ["a non-array replaces an array", ntp("a"), { NTPServers: "b" }, { NTPServers: "b" }],
    [
      "a new object is taken through the rules",
      {},
      { Dns: { Servers: [{}, "a"] } },
      { Dns: { Servers: ["a"] } },
    ],
  ])("%s", (_name, current, patch, expected) => {
    expect(mergePatch(current, patch)).toEqual(expected);
  });

  it("never mutates its arguments", () => {
    const current: JsonObject = { Users: [{ Name: "a" }, { Name: "b" }], Boot: { Mode: "UEFI" } };
    const patch: JsonObject = { Users: [{ Name: "z" }, null], Boot: { Mode: "Legacy" } };
    const before = structuredClone(current);
    const patchBefore = structuredClone(patch);
    const merged = mergePatch(current, patch);
    expect(current).toEqual(before);
    expect(patch).toEqual(patchBefore);
    expect(merged).toEqual({ Users: [{ Name: "z" }], Boot: { Mode: "Legacy" } });
  });
});
