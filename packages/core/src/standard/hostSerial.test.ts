import { describe, expect, it } from "vitest";
import {
  type ChassisSerialFacts,
  type HostSerial,
  hostSerial,
  type SystemSerialFacts,
} from "./hostSerial.js";

const SYSTEM = "/redfish/v1/Systems/System_0";
const system = (fields: Partial<SystemSerialFacts> = {}): SystemSerialFacts => ({
  path: SYSTEM,
  id: "System_0",
  serialNumber: "",
  chassisLinks: [],
  ...fields,
});
const chassis = (
  id: string,
  serialNumber: string | null,
  systemLinks: string[] = [],
): ChassisSerialFacts => ({
  path: `/redfish/v1/Chassis/${id}`,
  id,
  serialNumber,
  systemLinks,
});

const CASES: Array<[string, SystemSerialFacts, ChassisSerialFacts[], HostSerial | undefined]> = [
  [
    "keeps the system's own serial, trimmed",
    system({ serialNumber: " SYS-1 " }),
    [chassis("Chassis_0", "CH-1", [SYSTEM])],
    { serialNumber: "SYS-1" },
  ],
  [
    "takes the chassis the system links first (GB200 tray: Links.Chassis)",
    system({ chassisLinks: ["/redfish/v1/Chassis/Chassis_0"] }),
    [chassis("BMC_0", "BMC-SER"), chassis("Chassis_0", " CH-1 ")],
    { serialNumber: "CH-1", source: { chassisId: "Chassis_0", via: "Links.Chassis" } },
  ],
  [
    "skips a linked chassis without a serial for the next linked one",
    system({
      serialNumber: null,
      chassisLinks: ["/redfish/v1/Chassis/CPU_0", "/redfish/v1/Chassis/Chassis_0/"],
    }),
    [chassis("CPU_0", "  "), chassis("Chassis_0", "CH-1")],
    { serialNumber: "CH-1", source: { chassisId: "Chassis_0", via: "Links.Chassis" } },
  ],
  [
    "else the chassis whose Links.ComputerSystems names the system",
    system({ serialNumber: undefined }),
    [chassis("PDB_0", "PDB-SER"), chassis("Chassis_0", "CH-1", ["/redfish/v1/systems/system_0"])],
    { serialNumber: "CH-1", source: { chassisId: "Chassis_0", via: "Links.ComputerSystems" } },
  ],
  [
    "else the chassis with the system's Id",
    system({ id: "1", path: "/redfish/v1/Systems/1" }),
    [chassis("Enclosure", "ENC-SER"), chassis("1", "CH-1")],
    { serialNumber: "CH-1", source: { chassisId: "1", via: "Id" } },
  ],
  [
    "never takes an unrelated chassis' serial",
    system(),
    [chassis("PDB_0", "PDB-SER"), chassis("BMC_0", "BMC-SER", ["/redfish/v1/Systems/Other"])],
    undefined,
  ],
  [
    "no serial anywhere",
    system({ chassisLinks: ["/redfish/v1/Chassis/C"] }),
    [chassis("C", null)],
    undefined,
  ],
];

describe("hostSerial", () => {
  it.each(CASES)("%s", (_name, given, allChassis, expected) => {
    expect(hostSerial(given, allChassis)).toEqual(expected);
  });
});
