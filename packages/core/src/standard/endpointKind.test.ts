import { describe, expect, it } from "vitest";
import { classifyEndpoint, type EndpointClassification, type EndpointShape } from "./endpointKind.js";

const CASES: Array<[string, EndpointShape, EndpointClassification]> = [
  [
    "a 1U server",
    { systems: [{ id: "1" }], chassis: [{ id: "1", chassisType: "RackMount" }] },
    { kind: "host", reason: "computer system 1" },
  ],
  [
    "a DGX: its HGX NVSwitches and fabric do not make it a switch",
    {
      systems: [{ id: "HGX_Baseboard_0" }, { id: "DGX" }],
      chassis: [
        { id: "DGX", chassisType: "RackMount" },
        { id: "HGX_NVSwitch_0", chassisType: "Component" },
      ],
    },
    { kind: "host", reason: "computer system DGX" },
  ],
  [
    "a BlueField's own BMC is a host endpoint (the explorer tells DPUs apart)",
    { systems: [{ id: "Bluefield" }], chassis: [{ id: "Card1", chassisType: "Card" }] },
    { kind: "host", reason: "computer system Bluefield" },
  ],
  [
    "a GB switch tray, even with a System_0 for its own CPU (NICo: chassis MGX_NVSwitch_0)",
    {
      systems: [{ id: "System_0" }],
      chassis: [{ id: "BMC_0" }, { id: "MGX_NVSwitch_0", chassisType: "Enclosure" }],
    },
    { kind: "switch", reason: "chassis MGX_NVSwitch_0 (Enclosure)" },
  ],
  [
    "a chassis typed Switch, with its fabric's switches",
    { systems: [], chassis: [{ id: "Tray", chassisType: "Switch" }], fabricSwitches: 2 },
    { kind: "switch", reason: "chassis Tray (Switch); Fabrics list 2 switches" },
  ],
  [
    "no system, switches under Fabrics",
    { systems: [], chassis: [{ id: "Tray", chassisType: "Enclosure" }], fabricSwitches: 1, powerShelves: 0 },
    { kind: "switch", reason: "no computer system; Fabrics list 1 switch" },
  ],
  [
    "a power shelf by its chassis name (NICo: powershelf)",
    { systems: [], chassis: [{ id: "powershelf" }] },
    { kind: "powerShelf", reason: "chassis powershelf" },
  ],
  [
    "a chassis typed PowerShelf",
    { systems: [], chassis: [{ id: "Shelf_0", chassisType: "PowerShelf" }], powerShelves: 1 },
    { kind: "powerShelf", reason: "chassis Shelf_0 (PowerShelf); PowerEquipment lists 1 power shelf" },
  ],
  [
    "no system, power shelves under PowerEquipment",
    { systems: [], chassis: [{ id: "Shelf_0", chassisType: "Shelf" }], fabricSwitches: 0, powerShelves: 2 },
    { kind: "powerShelf", reason: "no computer system; PowerEquipment lists 2 power shelves" },
  ],
  [
    "only a GPU baseboard system",
    { systems: [{ id: "HGX_Baseboard_0" }], chassis: [{ id: "HGX_GPU_0" }] },
    {
      kind: "unknown",
      reason: "its only computer systems (HGX_Baseboard_0) are GPU baseboards; no switch or power shelf",
    },
  ],
  [
    "nothing at all",
    { systems: [], chassis: [] },
    { kind: "unknown", reason: "no computer system, switch or power shelf" },
  ],
];

describe("classifyEndpoint", () => {
  it.each(CASES)("%s", (_name, shape, expected) => {
    expect(classifyEndpoint(shape)).toEqual(expected);
  });
});
