import { describe, expect, it } from "vitest";
import type { BootOptionInfo, BootTarget } from "../drivers/types.js";
import { bootOptionMatches, bootOptionsNameMacs, findDpuBootOption, moveToFront } from "./bootMatching.js";
import { toBootOptionInfo } from "./mappers.js";

const option = (DisplayName: string, UefiDevicePath: string | null = null): BootOptionInfo =>
  toBootOptionInfo({ Id: DisplayName, BootOptionReference: DisplayName, DisplayName, UefiDevicePath });

// Option names as real BMCs print them (Dell, HPE, Lenovo, Supermicro, BlueField).
const CASES: Array<[BootOptionInfo, BootTarget | undefined]> = [
  [option("HTTP Device 1: NIC in Slot 5 Port 1", "VenHw(986D1755-B9D0-4F8D-A0DA-D1DB18672045)"), "uefiHttp"],
  [
    option(
      "Unavailable: ubuntu",
      "HD(1,GPT,6634D938-1211-4F7A-89C6-A35A60BE1E4A,0x800,0x219800)/\\EFI\\ubuntu\\shimx64.efi",
    ),
    "hdd",
  ],
  [
    option(
      "Slot 5 Port 1 : Mellanox Network Adapter - B8:3F:D2:D7:F7:4A (HTTP(S) IPv4)",
      "PciRoot(0x7)/Pci(0x1,0x1)/Pci(0x0,0x0)/MAC(B83FD2D7F74A,0x1)/IPv4(0.0.0.0)/Uri()",
    ),
    "uefiHttp",
  ],
  [
    option(
      "Slot 5 Port 1 : Mellanox Network Adapter - B8:3F:D2:D7:F7:4A (PXE IPv4)",
      "PciRoot(0x7)/Pci(0x1,0x1)/Pci(0x0,0x0)/MAC(B83FD2D7F74A,0x1)/IPv4(0.0.0.0)",
    ),
    "pxe",
  ],
  [option("Network", "VenHw_B2AD3248_4F72_4950_A966_CFE5062DB83A_05000000"), "pxe"],
  [option("HardDisk", "VenHw_B2AD3248_4F72_4950_A966_CFE5062DB83A_01000000"), "hdd"],
  [option("(B26/D0/F0) UEFI PXE IPv4 Nvidia Network Adapter - 94:6D:AE:91:FB:22 - 946DAE91FB22"), "pxe"],
  [
    option(
      "NET-NIC_P0-IPV4",
      "PciRoot(0x0)/Pci(0x0,0x0)/MAC(5C257308F362,0x1)/IPv4(0.0.0.0,0x0,DHCP,0.0.0.0,0.0.0.0,0.0.0.0)",
    ),
    "pxe",
  ],
  [option("UEFI Shell"), undefined],
];

describe("bootOptionMatches", () => {
  it.each(CASES)("%o is %s", (candidate, expected) => {
    const matches = (["pxe", "hdd", "uefiHttp"] as const).filter((target) =>
      bootOptionMatches(candidate, target),
    );
    expect(matches).toEqual(expected ? [expected] : []);
  });
});

describe("findDpuBootOption", () => {
  const options = [
    option("PXE IPv6", "PciRoot(0x7)/MAC(B83FD2D7F74A,0x1)/IPv6(0000:0000:0000:0000:0000:0000:0000:0000)"),
    option("PXE IPv4", "PciRoot(0x7)/MAC(B83FD2D7F74A,0x1)/IPv4(0.0.0.0)"),
    option(
      "HTTP IPv6",
      "PciRoot(0x7)/MAC(B83FD2D7F74A,0x1)/IPv6(0000:0000:0000:0000:0000:0000:0000:0000)/Uri()",
    ),
    option("HTTP IPv4", "PciRoot(0x7)/MAC(B83FD2D7F74A,0x1)/IPv4(0.0.0.0)/Uri()"),
    option("Other NIC HTTP IPv4", "PciRoot(0x6)/MAC(88E9A4809DA2,0x1)/IPv4(0.0.0.0)/Uri()"),
  ];

  it("prefers HTTP over PXE and IPv4 over IPv6 for that MAC", () => {
    expect(findDpuBootOption(options, "B8:3F:D2:D7:F7:4A")?.displayName).toBe("HTTP IPv4");
    expect(findDpuBootOption(options.slice(0, 2), "B8:3F:D2:D7:F7:4A")?.displayName).toBe("PXE IPv4");
    expect(findDpuBootOption(options, "00:11:22:33:44:55")).toBeUndefined();
  });

  it("moves one entry to the front and keeps the rest in order", () => {
    expect(moveToFront(["a", "b", "c", "d"], "c")).toEqual(["c", "a", "b", "d"]);
    expect(moveToFront(["a", "b"], "z")).toEqual(["z", "a", "b"]);
  });
});

describe("bootOptionsNameMacs", () => {
  it("is false only when there are options and none names a MAC", () => {
    const withMac = option("UEFI PXEv4 (MAC:02005E100001)");
    const withoutMac = option("UEFI PXEv4 (Ethernet Interface 1)");
    expect(withMac.mac).toBe("02:00:5E:10:00:01");
    expect(bootOptionsNameMacs([withoutMac, withMac])).toBe(true);
    expect(bootOptionsNameMacs([withoutMac, option("Windows Boot Manager")])).toBe(false);
    // None listed yet (before the host's first POST) is "not found yet", not "cannot".
    expect(bootOptionsNameMacs([])).toBe(true);
  });
});
