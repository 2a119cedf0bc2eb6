import { describe, expect, it } from "vitest";
import { canonicalMac, MAC_SPELLINGS, macOffset, macOfGuid, macPlus, spellMac } from "./macAddress.js";

describe("canonicalMac", () => {
  it.each([
    ["B8:3F:D2:AA:10:40", "b83fd2aa1040"],
    ["b8-3f-d2-aa-10-40", "b83fd2aa1040"],
    ["B83FD2AA1040", "b83fd2aa1040"],
    [" b83f.d2aa.1040 ", "b83fd2aa1040"],
    ["00:00:00:00:00:00", undefined],
    ["FF:FF:FF:FF:FF:FF", undefined],
    ["b8:3f:d2:aa:10", undefined],
    ["MT2301X00101", undefined],
  ])("%s → %s", (raw, expected) => {
    expect(canonicalMac(raw)).toBe(expected);
  });
});

describe("macOfGuid", () => {
  it.each([
    ["b83f:d203:00aa:1040", "b83fd2aa1040"],
    ["b83fd20300aa1040", "b83fd2aa1040"],
    ["0C42:A103:00BB:2200", "0c42a1bb2200"],
    // Not a BlueField base GUID: no 0300 after the OUI.
    ["b83f:d2ff:feaa:1040", undefined],
    ["b83f:d203:00aa", undefined],
  ])("%s → %s", (raw, expected) => {
    expect(macOfGuid(raw)).toBe(expected);
  });
});

describe("spellMac", () => {
  it("writes every spelling a BMC uses, and each reads back to the same MAC", () => {
    const spelled = Object.fromEntries(
      MAC_SPELLINGS.map((spelling) => [spelling, spellMac("b83fd2aa1040", spelling)]),
    );
    expect(spelled).toEqual({
      colonUpper: "B8:3F:D2:AA:10:40",
      colonLower: "b8:3f:d2:aa:10:40",
      dashUpper: "B8-3F-D2-AA-10-40",
      dashLower: "b8-3f-d2-aa-10-40",
      bareUpper: "B83FD2AA1040",
      bareLower: "b83fd2aa1040",
      guidUpper: "B83FD20300AA1040",
      guidLower: "b83fd20300aa1040",
      guidColonUpper: "B83F:D203:00AA:1040",
      guidColonLower: "b83f:d203:00aa:1040",
    });
    for (const text of Object.values(spelled)) {
      expect(canonicalMac(text) ?? macOfGuid(text)).toBe("b83fd2aa1040");
    }
  });
});

describe("MAC arithmetic", () => {
  it("counts ports up from a base MAC, across byte boundaries", () => {
    expect(macPlus("b83fd2aa1040", 1)).toBe("b83fd2aa1041");
    expect(macPlus("b83fd2aa10ff", 1)).toBe("b83fd2aa1100");
    expect(macOffset("b83fd2aa1001", "b83fd2aa1002")).toBe(1);
  });
});
