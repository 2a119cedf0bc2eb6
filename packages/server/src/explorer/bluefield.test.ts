import { describe, expect, it } from "vitest";
import { isBluefieldPartNumber } from "./bluefield.js";
import { machineIdFor } from "./machineIds.js";

describe("isBluefieldPartNumber", () => {
  it.each([
    ["900-9D3B6-00CV-AA0", true],
    ["900-9d3b6-00sv-aa0", true],
    ["  900-9D3D4-00EN-HA0", true],
    ["MBF2H516A-CEEO", true],
    ["MBF2H536C-CECOT", true],
    ["900-9D206-0063-ST2", true],
    ["900-9D219-0086-ST1", true],
    ["SN37B36732", true],
    ["699-2G520-0200-A00", false],
    ["P10115-001", false],
    ["", false],
    [undefined, false],
  ])("%s → %s", (part, expected) => {
    expect(isBluefieldPartNumber(part)).toBe(expected);
  });

  it("takes extra prefixes from the operator", () => {
    expect(isBluefieldPartNumber("ACME-42", ["acme-"])).toBe(true);
    expect(isBluefieldPartNumber("ACME-42")).toBe(false);
  });
});

describe("machineIdFor", () => {
  it("derives readable, stable ids from the trimmed serial and the kind", () => {
    const id = machineIdFor("host", "SER-1");
    expect(id).toMatch(/^host-[0-9a-f]{24}$/);
    expect(machineIdFor("host", " SER-1 ")).toBe(id);
    expect(machineIdFor("dpu", "SER-1")).toMatch(/^dpu-[0-9a-f]{24}$/);
    expect(machineIdFor("dpu", "SER-1").slice(4)).not.toBe(id.slice(5));
    expect(machineIdFor("host", "SER-2")).not.toBe(id);
  });
});
