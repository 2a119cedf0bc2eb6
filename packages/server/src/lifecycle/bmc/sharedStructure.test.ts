import { describe, expect, it } from "vitest";
import { StructureSharing } from "./sharedStructure.js";

describe("StructureSharing", () => {
  it.each([
    ["a string", "/redfish/v1/Systems"],
    ["a number", 42],
    ["null", null],
    ["an empty array", []],
    ["nested arrays", [[1, 2], [], ["a", null, true]]],
    ["an object with a long text", { Description: "x".repeat(500), Links: { Self: "/redfish/v1" } }],
    ["an object with an own __proto__ key", JSON.parse('{"__proto__": {"polluted": true}, "Id": "1"}')],
  ])("copies %s equal to the original, frozen all the way down", (_name, value: unknown) => {
    const shared = new StructureSharing().share(value);
    expect(shared).toEqual(value);
    const frozenThroughout = (v: unknown): boolean =>
      v === null || typeof v !== "object" || (Object.isFrozen(v) && Object.values(v).every(frozenThroughout));
    expect(frozenThroughout(shared)).toBe(true);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("keeps an own __proto__ key as data, not as the copy's prototype", () => {
    const shared = new StructureSharing().share(JSON.parse('{"__proto__": {"Id": "x"}}') as object);
    expect(Object.getPrototypeOf(shared)).toBe(Object.prototype);
    expect(Object.keys(shared)).toEqual(["__proto__"]);
  });

  it("makes equal subtrees of different values one object, and unequal ones not", () => {
    const sharing = new StructureSharing();
    const link = (path: string) => ({ "@odata.id": path });
    const a = sharing.share({ Systems: link("/redfish/v1/Systems"), Id: "a", Long: ["y".repeat(100)] });
    const b = sharing.share({ Systems: link("/redfish/v1/Systems"), Id: "b", Long: ["y".repeat(100)] });
    const c = sharing.share({ Systems: link("/redfish/v1/Chassis"), Id: "c", Long: ["z".repeat(100)] });
    expect(a).not.toBe(b);
    expect(a.Systems).toBe(b.Systems);
    expect(a.Long).toBe(b.Long);
    expect(c.Systems).not.toBe(a.Systems);
    expect(c.Long).not.toBe(a.Long);
    // An array and an object whose JSON differ only in brackets stay apart.
    expect(sharing.share([1])).not.toBe(sharing.share({ 0: 1 }));
  });

  it("keeps the object itself its own with shareMembers", () => {
    const sharing = new StructureSharing();
    const a = sharing.shareMembers({ Links: { Self: "/x" }, UUID: "1" });
    const b = sharing.shareMembers({ Links: { Self: "/x" }, UUID: "1" });
    expect(a).not.toBe(b);
    expect(a.Links).toBe(b.Links);
    expect(Object.isFrozen(a)).toBe(true);
  });

  it("starts its table afresh past its limit, and what it made stays correct", () => {
    const sharing = new StructureSharing(4);
    const made = Array.from({ length: 10 }, (_, i) => sharing.share({ Id: `id-${i}`, Tag: "same" }));
    expect(sharing.size).toBeLessThanOrEqual(4);
    expect(made.map((value) => value.Id)).toEqual(Array.from({ length: 10 }, (_, i) => `id-${i}`));
    expect(sharing.share({ Id: "id-9", Tag: "same" })).toBe(made[9]);
  });
});
