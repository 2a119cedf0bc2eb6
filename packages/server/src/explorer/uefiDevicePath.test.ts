import { describe, expect, it } from "vitest";
import { compareUefiDevicePaths, parseUefiDevicePath } from "./uefiDevicePath.js";

describe("parseUefiDevicePath", () => {
  it.each([
    ["PciRoot(0x6)/Pci(0x1,0x0)/Pci(0x0,0x1)", [6, 1, 0, 0, 1]],
    ["PciRoot(0x20)/Pci(0x1C,0x5)/Pci(0x0,0x0)/MAC(B83FD2AA1001,0x1)/IPv4(0.0.0.0)", [32, 28, 5, 0, 0]],
    ["pciroot(0x0)/pci(0x10,0x0)", [0, 16, 0]],
    ["Acpi(PNP0A03,0)/Pci(0x2,0x0)", [2, 0]],
    ["MAC(B83FD2AA1001,0x1)", undefined],
    ["PciRoot(0xZZ)", undefined],
    ["", undefined],
    [undefined, undefined],
  ])("%s → %j", (path, numbers) => {
    expect(parseUefiDevicePath(path)).toEqual(numbers);
  });
});

describe("compareUefiDevicePaths", () => {
  it.each([
    ["PciRoot(0x0)/Pci(0x2,0x0)", "PciRoot(0x0)/Pci(0x10,0x0)", -1],
    ["PciRoot(0x6)/Pci(0x1,0x0)", "PciRoot(0x0)/Pci(0x1C,0x5)", 1],
    ["PciRoot(0x6)/Pci(0x1,0x0)/Pci(0x0,0x0)", "PciRoot(0x6)/Pci(0x1,0x0)/Pci(0x0,0x1)", -1],
    ["PciRoot(0x6)/Pci(0x1,0x0)", "PciRoot(0x6)/Pci(0x1,0x0)/Pci(0x0,0x0)", -1],
    ["PciRoot(0x6)/Pci(0x1,0x0)", "PciRoot(0x6)/Pci(0x1,0x0)", 0],
    ["PciRoot(0x6)", undefined, -1],
    [undefined, "PciRoot(0x6)", 1],
    [undefined, undefined, 0],
  ])("%s vs %s → %i", (a, b, sign) => {
    expect(Math.sign(compareUefiDevicePaths(a, b))).toBe(sign);
  });
});
