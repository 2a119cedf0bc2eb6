import { describe, expect, it } from "vitest";
import { forEachString, macCandidates, serialCandidate, uuidCandidate } from "./tokenCandidates.js";

describe("macCandidates", () => {
  it.each<[string, string, string[]]>([
    ["b8:3f:d2:aa:10:50", "MACAddress", ["b83fd2aa1050"]],
    ["B8-3F-D2-AA-10-50", "MACAddress", ["b83fd2aa1050"]],
    ["PciRoot(0x5)/Pci(0x1,0x0)/MAC(02A611300001,0x1)/IPv4(0.0.0.0)", "UefiDevicePath", ["02a611300001"]],
    ["UEFI HTTPv4 (MAC:B83FD2AA1050)", "DisplayName", ["b83fd2aa1050"]],
    [
      "(B26/D0/F0) UEFI HTTP IPv4 Nvidia Network Adapter - B8:3F:D2:5A:10:01 - B83FD25A1001",
      "DisplayName",
      ["b83fd25a1001", "b83fd25a1001"],
    ],
    ["b83fd2aa1040", "BaseMAC", ["b83fd2aa1040"]],
    ["b83fd20300aa1040", "BaseGUID", ["b83fd2aa1040"]],
    ["0c42:a103:00bb:2200", "Version", ["0c42a1bb2200"]],
    // A bare hex run is a MAC only where BMCs write one.
    ["0f2a6b4d9c11", "Id", []],
    // An NVMe EUI-64 has eight groups; an IPv6 address has groups of four.
    ["NVMe(0x1,AA-BB-CC-DD-EE-FF-00-11)", "UefiDevicePath", []],
    ["IPv6(0000:0000:0000:0000:0000:0000:0000:0000)", "UefiDevicePath", []],
    ["00:00:00:00:00:00", "MACAddress", []],
  ])("%s (%s)", (text, key, expected) => {
    expect(macCandidates(text, key)).toEqual(expected);
  });
});

describe("serialCandidate and uuidCandidate", () => {
  it.each<[string, string, string | undefined]>([
    ["MT2301X00101                 ", "SerialNumber", "MT2301X00101"],
    ["RSK7501", "ChassisServiceTag", "RSK7501"],
    ["                             ", "SerialNumber", undefined],
    ["To Be Filled By O.E.M.", "SerialNumber", undefined],
    ["N/A", "SerialNumber", undefined],
    ["Com1", "SerialPortAddress", undefined],
  ])("serial %j under %s → %s", (text, key, expected) => {
    expect(serialCandidate(text, key)).toBe(expected);
  });

  it("takes UUIDs under a UUID key, lower-cased", () => {
    expect(uuidCandidate("5D0C7A1E-3B2F-11EF-9A10-0A1B2C3D4E5F", "UUID")).toBe(
      "5d0c7a1e-3b2f-11ef-9a10-0a1b2c3d4e5f",
    );
    expect(uuidCandidate("3A191845-5F86-4E78-8FCE-C4CFF59F9DAB", "UefiDevicePath")).toBeUndefined();
  });

  it("visits every string with its key and pointer", () => {
    const seen: string[] = [];
    forEachString({ a: { b: ["x", { c: "y" }] }, n: 1 }, (text, key, pointer) => {
      seen.push(`${pointer.join("/")}=${text} (${key})`);
    });
    expect(seen).toEqual(["a/b/0=x (0)", "a/b/1/c=y (c)"]);
  });
});
