import { describe, expect, it } from "vitest";
import type { ComputerSystem } from "../redfish/index.js";
import { choosePrimarySystem, type SystemChoiceFacts, systemChoiceFacts } from "./primarySystem.js";

const facts = (id: string, fields: Partial<SystemChoiceFacts> = {}): SystemChoiceFacts => ({
  id,
  bootable: true,
  systemType: "Physical",
  ...fields,
});

const CASES: Array<[string, SystemChoiceFacts[], string | undefined]> = [
  ["one system", [facts("1")], "1"],
  ["no system", [], undefined],
  [
    "the host, not the HGX baseboard listed before it",
    [facts("HGX_Baseboard_0", { bootable: false }), facts("DGX")],
    "DGX",
  ],
  [
    "a baseboard named so, whatever its Id",
    [facts("System_1", { name: "HGX Baseboard", bootable: true }), facts("System_0")],
    "System_0",
  ],
  [
    "a Physical system before a DPU or a virtual one",
    [facts("Bluefield", { systemType: "DPU" }), facts("VM", { systemType: "Virtual" }), facts("1")],
    "1",
  ],
  [
    "no SystemType counts as Physical",
    [facts("A", { systemType: "OS" }), facts("B", { systemType: undefined })],
    "B",
  ],
  ["the one with boot options", [facts("A", { bootable: false }), facts("B")], "B"],
  ["a tie: the first listed", [facts("System_0"), facts("System_1")], "System_0"],
];

describe("choosePrimarySystem", () => {
  it.each(CASES)("%s", (_name, systems, expected) => {
    expect(choosePrimarySystem(systems)).toBe(expected);
  });
});

describe("systemChoiceFacts", () => {
  it.each<[string, ComputerSystem | undefined, Partial<SystemChoiceFacts>]>([
    [
      "boot options link",
      { Name: "DGX", SystemType: "Physical", Boot: { BootOptions: { "@odata.id": "/x" } } },
      { name: "DGX", systemType: "Physical", bootable: true },
    ],
    ["boot order only", { Boot: { BootOrder: ["Boot0001"] } }, { bootable: true }],
    ["no boot settings", { SystemType: "Physical", Boot: { BootOrder: [] } }, { bootable: false }],
    ["unreadable system", undefined, { name: undefined, systemType: undefined, bootable: false }],
  ])("%s", (_name, system, expected) => {
    expect(systemChoiceFacts("S", system)).toMatchObject({ id: "S", ...expected });
  });
});
