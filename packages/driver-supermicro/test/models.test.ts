import { describe, expect, it } from "vitest";
import { compareFirmware, firmwareAtLeast, isMgxC2, keepsHostInterfaceOn } from "../src/models/index.js";

describe("model and firmware guards", () => {
  it.each([
    ["01.05.01", "01.05.01", 0],
    ["01.10.00", "01.05.01", 1],
    ["01.04.99", "01.05.01", -1],
    ["11.01.01", "01.05.01", 1],
    ["1.5", "01.05.00", 0],
  ])("compares firmware %s with %s numerically", (a, b, expected) => {
    expect(compareFirmware(a, b)).toBe(expected);
  });

  it("treats a firmware version it cannot read as too old", () => {
    expect(compareFirmware("v1.5-beta", "01.05.01")).toBeUndefined();
    expect(firmwareAtLeast(undefined, "01.05.01")).toBe(false);
    expect(firmwareAtLeast("01.05.02", "01.05.01")).toBe(true);
  });

  it("knows ARS-121L-DNR must keep its host interface", () => {
    expect(keepsHostInterfaceOn("ARS-121L-DNR")).toBe(true);
    expect(keepsHostInterfaceOn("SYS-821GE-TNHR")).toBe(false);
    expect(keepsHostInterfaceOn(undefined)).toBe(false);
  });

  it("recognises an MGX C2 by its NVIDIA PG535 processor module chassis", () => {
    expect(isMgxC2([{ Manufacturer: "NVIDIA", Model: "PG535-A00" }])).toBe(true);
    expect(isMgxC2([{ Manufacturer: "Nvidia", PartNumber: "692-2G535-0200-000" }])).toBe(true);
    expect(isMgxC2([{ Manufacturer: "NVIDIA", Model: "HGX_H100" }, { Manufacturer: "Supermicro" }])).toBe(
      false,
    );
  });
});
