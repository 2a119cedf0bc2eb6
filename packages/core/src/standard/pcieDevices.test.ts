import { describe, expect, it } from "vitest";
import {
  type PcieChassisSource,
  type PcieSystemSource,
  type PlannedPcieDevice,
  planPcieDevices,
} from "./pcieDevices.js";

const S = "/redfish/v1/Systems";
const C = "/redfish/v1/Chassis";
const sys = (id: string, deviceLinks: string[], chassisLinks: string[] = []): PcieSystemSource => ({
  id,
  path: `${S}/${id}`,
  deviceLinks,
  chassisLinks,
});
const chassis = (id: string, devices: string[], systemLinks: string[] = []): PcieChassisSource => ({
  id,
  path: `${C}/${id}`,
  devicePaths: devices.map((d) => `${C}/${id}/PCIeDevices/${d}`),
  systemLinks,
});
const device = (id: string, chassisId: string | undefined, systemId: string, path?: string) => ({
  path: path ?? `${C}/${chassisId}/PCIeDevices/${id}`,
  systemId,
  chassisId,
});

const CASES: Array<[string, PcieSystemSource[], PcieChassisSource[], PlannedPcieDevice[]]> = [
  [
    "a device a system links and its chassis lists at the same URL is one device",
    [sys("1", [`${C}/1/PCIeDevices/NIC`, `${C}/1/PCIeDevices/GPU/`])],
    [chassis("1", ["NIC", "GPU"])],
    [device("NIC", "1", "1"), device("GPU", "1", "1")],
  ],
  [
    "Dell: the system's own URL with the chassis device's Id, even listed twice, is that device",
    [
      sys("System.Embedded.1", [
        `${S}/System.Embedded.1/PCIeDevices/0-17`,
        `${S}/System.Embedded.1/PCIeDevices/0-17`,
        `${S}/System.Embedded.1/PCIeDevices/3-0`,
      ]),
    ],
    [chassis("System.Embedded.1", ["0-17", "3-0"]), chassis("Enclosure.Internal.0-1", [])],
    [
      device("0-17", "System.Embedded.1", "System.Embedded.1"),
      device("3-0", "System.Embedded.1", "System.Embedded.1"),
    ],
  ],
  [
    "DGX + HGX baseboard: each device once, under the system that links it, with its chassis",
    [
      sys("DGX", [`${C}/DGX/PCIeDevices/NIC0`, `${C}/DGX/PCIeDevices/DPU0`]),
      sys("HGX_Baseboard_0", [`${C}/HGX_GPU_0/PCIeDevices/GPU_0`, `${C}/HGX_GPU_1/PCIeDevices/GPU_1`]),
    ],
    [
      chassis("DGX", ["NIC0", "DPU0"], [`${S}/DGX`]),
      chassis("HGX_GPU_0", ["GPU_0"]),
      chassis("HGX_GPU_1", ["GPU_1"]),
    ],
    [
      device("NIC0", "DGX", "DGX"),
      device("DPU0", "DGX", "DGX"),
      device("GPU_0", "HGX_GPU_0", "HGX_Baseboard_0"),
      device("GPU_1", "HGX_GPU_1", "HGX_Baseboard_0"),
    ],
  ],
  [
    "the first system (the primary) keeps a device two systems link",
    [sys("DGX", [`${C}/DGX/PCIeDevices/NIC0`]), sys("HGX_Baseboard_0", [`${C}/DGX/PCIeDevices/NIC0`])],
    [chassis("DGX", ["NIC0"])],
    [device("NIC0", "DGX", "DGX")],
  ],
  [
    "a device only a chassis lists goes to the system tied to that chassis, else the first",
    [sys("DGX", []), sys("HGX_Baseboard_0", [], [`${C}/HGX_GPU_0`])],
    [
      chassis("HGX_GPU_0", ["GPU_0"]),
      chassis("HGX_NVSwitch_0", ["NVSwitch_0"]),
      chassis("DGX", ["NIC0"], [`${S}/DGX`]),
    ],
    [
      device("GPU_0", "HGX_GPU_0", "HGX_Baseboard_0"),
      device("NVSwitch_0", "HGX_NVSwitch_0", "DGX"),
      device("NIC0", "DGX", "DGX"),
    ],
  ],
  [
    "a linked device no collection lists takes its chassis from its URL, or none",
    [sys("1", [`${C}/Riser/PCIeDevices/Slot4`, `${S}/1/PCIeDevices/Onboard`])],
    [chassis("1", [])],
    [device("Slot4", "Riser", "1"), device("Onboard", undefined, "1", `${S}/1/PCIeDevices/Onboard`)],
  ],
  [
    "two chassis listing the same Id are two devices",
    [sys("1", [])],
    [chassis("A", ["GPU"]), chassis("B", ["GPU"])],
    [device("GPU", "A", "1"), device("GPU", "B", "1")],
  ],
  ["no system: nothing to report devices under", [], [chassis("MGX_NVSwitch_0", ["NVSwitch_0"])], []],
];

describe("planPcieDevices", () => {
  it.each(CASES)("%s", (_name, systems, allChassis, expected) => {
    expect(planPcieDevices(systems, allChassis)).toEqual(expected);
  });
});
