import { describe, expect, it } from "vitest";
import type { EthernetInterface } from "../redfish/index.js";
import {
  ethernetInterfaceType,
  macFromText,
  macFromUefiDevicePath,
  normalizeMac,
  toBootOptionInfo,
  toEthernetInterfaceInfo,
  toEthernetInterfaceInfos,
  trimSerial,
} from "./mappers.js";

describe("normalizeMac", () => {
  it.each([
    ["b8:3f:d2:90:95:82", "B8:3F:D2:90:95:82"],
    ["B83FD2909582", "B8:3F:D2:90:95:82"],
    ["b8-3f-d2-90-95-82", "B8:3F:D2:90:95:82"],
    ["  b8:3f:d2:90:95:82 ", "B8:3F:D2:90:95:82"],
    ["00:00:00:00:00:00", undefined],
    ["not a mac", undefined],
    ["B8:3F:D2:90:95", undefined],
    [undefined, undefined],
    [42, undefined],
  ])("%s → %s", (raw, expected) => {
    expect(normalizeMac(raw)).toBe(expected);
  });
});

describe("MACs in boot options", () => {
  it.each([
    ["PciRoot(0x8)/Pci(0x2,0x0)/Pci(0x0,0x0)/MAC(B83FD29097C4,0x1)", "B8:3F:D2:90:97:C4"],
    [
      "PciRoot(0x0)/Pci(0x0,0x0)/MAC(5C257308F362,0x1)/IPv4(0.0.0.0,0x0,DHCP,0.0.0.0,0.0.0.0,0.0.0.0)",
      "5C:25:73:08:F3:62",
    ],
    ["HD(1,GPT,6634D938-1211-4F7A-89C6-A35A60BE1E4A,0x800,0x219800)/\\EFI\\ubuntu\\shimx64.efi", undefined],
    [null, undefined],
  ])("device path %s", (path, mac) => {
    expect(macFromUefiDevicePath(path)).toBe(mac);
  });

  it("reads a MAC printed in a display name when the path has none", () => {
    expect(macFromText("Slot 5 Port 1 : Mellanox Network Adapter - B8:3F:D2:D7:F7:4A (HTTP(S) IPv4)")).toBe(
      "B8:3F:D2:D7:F7:4A",
    );
    const option = toBootOptionInfo({
      Id: "Boot0019",
      BootOptionReference: "Boot0019",
      DisplayName: "UEFI PXE IPv4 Nvidia - 94:6D:AE:91:FB:22 - 946DAE91FB22",
      UefiDevicePath: null,
    });
    expect(option.mac).toBe("94:6D:AE:91:FB:22");
    expect(option.uefiDevicePath).toBeUndefined();
    expect(macFromText("UEFI HTTPv4 (MAC:B83FD2AA0001)")).toBe("B8:3F:D2:AA:00:01");
    expect(macFromText("(B26/D0/F0) UEFI PXE IPv4 Nvidia Network Adapter - 7CC255793F8E")).toBe(
      "7C:C2:55:79:3F:8E",
    );
    expect(macFromText("HD(1,GPT,5C1B2A907E44)")).toBeUndefined();
  });
});

describe("ethernet interfaces", () => {
  it("accepts MacAddress as well as MACAddress and drops unassigned IPv4 addresses", () => {
    const info = toEthernetInterfaceInfo({
      Id: "1",
      MacAddress: "50:7c:6f:11:f2:a6",
      IPv4Addresses: [{ Address: "0.0.0.0" }, { Address: "10.0.0.5" }],
      InterfaceEnabled: false,
    });
    expect(info).toMatchObject({
      id: "1",
      mac: "50:7C:6F:11:F2:A6",
      ipv4Addresses: ["10.0.0.5"],
      enabled: false,
    });
  });

  it("states the interface type when the BMC does, and marks a VLAN interface linked to its parent Virtual", () => {
    const parent = { "@odata.id": "/redfish/v1/Systems/1/EthernetInterfaces/NIC1" };
    expect(ethernetInterfaceType({ EthernetInterfaceType: "Physical" })).toBe("Physical");
    expect(ethernetInterfaceType({ EthernetInterfaceType: "Virtual" })).toBe("Virtual");
    expect(
      ethernetInterfaceType({
        VLAN: { VLANEnable: true, VLANId: 100 },
        Links: { RelatedInterfaces: [parent] },
      }),
    ).toBe("Virtual");
    // A physical port that tags its own traffic (iDRAC with VLAN on) says so, or says nothing.
    expect(ethernetInterfaceType({ EthernetInterfaceType: "Physical", VLAN: { VLANEnable: true } })).toBe(
      "Physical",
    );
    expect(ethernetInterfaceType({ VLAN: { VLANEnable: true, VLANId: 10 } })).toBeUndefined();
    expect(ethernetInterfaceType({ EthernetInterfaceType: "Bogus" })).toBeUndefined();
    expect(toEthernetInterfaceInfo({ Id: "1", MACAddress: "02:00:00:00:00:01" })).not.toHaveProperty(
      "interfaceType",
    );
  });

  it("marks an untyped VLAN sub-interface carrying an untagged sibling's MAC Virtual, and nothing else", () => {
    const mac = "02:c0:ff:ee:00:01";
    const resources: EthernetInterface[] = [
      { Id: "NIC1", MACAddress: mac, VLAN: { VLANEnable: false } },
      { Id: "NIC1.200", MACAddress: mac, VLAN: { VLANEnable: true, VLANId: 200 } },
      // Tagged, but no sibling has its MAC: a lone tagged port stays unknown.
      { Id: "BMC", MACAddress: "02:c0:ff:ee:00:f0", VLAN: { VLANEnable: true, VLANId: 10 } },
      // Two untagged interfaces with one MAC are a real duplicate: neither is made virtual.
      { Id: "A", MACAddress: "02:00:00:00:00:0a" },
      { Id: "B", MACAddress: "02:00:00:00:00:0a" },
    ];
    expect(toEthernetInterfaceInfos(resources).map((i) => [i.id, i.interfaceType])).toEqual([
      ["NIC1", undefined],
      ["NIC1.200", "Virtual"],
      ["BMC", undefined],
      ["A", undefined],
      ["B", undefined],
    ]);
  });

  it("trims padded serials and treats blank ones as missing", () => {
    expect(trimSerial("  MT2243X01234  ")).toBe("MT2243X01234");
    expect(trimSerial("   ")).toBeUndefined();
  });
});
