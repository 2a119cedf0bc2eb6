import { type BootOptionInfo, REDACTED, toBootOptionInfo } from "@racksmith/core";
import { describe, expect, it } from "vitest";
import {
  baseMacFromOem,
  baseMacFromSysImage,
  bluefieldGeneration,
  HOST_PRIVILEGE_LEVEL,
  isOlderThan,
  maskSecrets,
  NIC_MODE_MIN_FIRMWARE,
  parseBmcFirmware,
  pickBootFirstOption,
  pickDpuHttpOption,
  reportedNicMode,
  resolveAttributeKey,
} from "../src/bluefield/index.js";
import { machineSetupDiffs, planMachineSetup } from "../src/setup/index.js";

describe("BlueField generation", () => {
  it.each([
    [{ systemModel: "BlueField-3 SmartNIC Main Card" }, 3],
    [{ systemModel: "BlueField-2 SmartNIC Main Card" }, 2],
    [{ systemModel: "Bluefield", cardModel: "BlueField 2 DPU 25GbE" }, 2],
    [{ partNumber: "900-9D3B6-00CV-AA0" }, 3],
    [{ partNumber: "SN37B36732" }, 3],
    [{ partNumber: "MBF2H516A-CEEOT" }, 2],
    [{ systemModel: "Bluefield", partNumber: "MCX653106A-HDAT" }, undefined],
  ])("%j → %s", (facts, expected) => {
    expect(bluefieldGeneration(facts)).toBe(expected);
  });
});

describe("BMC firmware versions", () => {
  it("parses BF-yy.mm-build and compares releases", () => {
    expect(parseBmcFirmware("BF-24.10-10")).toEqual({ major: 24, minor: 10, build: 10, text: "BF-24.10-10" });
    expect(isOlderThan(parseBmcFirmware("BF-23.10-4"), NIC_MODE_MIN_FIRMWARE)).toBe(true);
    expect(isOlderThan(parseBmcFirmware("BF-23.10-5"), NIC_MODE_MIN_FIRMWARE)).toBe(false);
    expect(isOlderThan(parseBmcFirmware("BF-24.01-1"), NIC_MODE_MIN_FIRMWARE)).toBe(false);
    // An unknown version format is not held against the BMC.
    expect(isOlderThan(parseBmcFirmware("custom-build"), NIC_MODE_MIN_FIRMWARE)).toBe(false);
  });
});

describe("base MAC", () => {
  it("reads Oem.Nvidia.BaseMAC and derives it from the DPU_SYS_IMAGE base GUID", () => {
    expect(baseMacFromOem("5c257308f352")).toBe("5C:25:73:08:F3:52");
    expect(baseMacFromSysImage("5c25:7303:0008:f352")).toBe("5C:25:73:08:F3:52");
    expect(baseMacFromSysImage(" b83f:d203:00aa:1040 ")).toBe("B8:3F:D2:AA:10:40");
  });

  it.each([
    undefined,
    "",
    "5c25:7303:0008",
    "5c25:7303:0008:f352:00",
    "zz25:7303:0008:f352",
    "version not available",
  ])("refuses %j", (version) => {
    expect(baseMacFromSysImage(version)).toBeUndefined();
  });
});

describe("NIC mode", () => {
  it("reads where each generation keeps it, falling back to the other place", () => {
    expect(reportedNicMode(3, "NicMode", "DpuMode")).toBe("nic");
    expect(reportedNicMode(2, "NicMode", "DpuMode")).toBe("dpu");
    expect(reportedNicMode(2, "NicMode", undefined)).toBe("nic");
    expect(reportedNicMode(undefined, "", "NicMode")).toBe("nic");
    expect(reportedNicMode(3, undefined, undefined)).toBeUndefined();
  });

  it("refuses a value it does not know", () => {
    expect(() => reportedNicMode(3, "SeparatedHost", undefined)).toThrow(
      expect.objectContaining({ code: "nic_mode_unknown" }),
    );
  });
});

describe("BIOS keys renamed in BMC 24.10", () => {
  const old = parseBmcFirmware("BF-24.04-5");
  const current = parseBmcFirmware("BF-24.10-10");

  it("uses the spelling the BIOS lists, whatever the firmware", () => {
    expect(
      resolveAttributeKey(HOST_PRIVILEGE_LEVEL, { "Host Privilege Level": "Privileged" }, current),
    ).toEqual({
      key: "Host Privilege Level",
      alternative: "HostPrivilegeLevel",
      listed: true,
    });
    expect(resolveAttributeKey(HOST_PRIVILEGE_LEVEL, { HostPrivilegeLevel: "Privileged" }, old).key).toBe(
      "HostPrivilegeLevel",
    );
  });

  it("infers it from the firmware when the BIOS lists neither", () => {
    expect(resolveAttributeKey(HOST_PRIVILEGE_LEVEL, {}, old)).toMatchObject({
      key: "Host Privilege Level",
      listed: false,
    });
    expect(resolveAttributeKey(HOST_PRIVILEGE_LEVEL, {}, current)).toMatchObject({
      key: "HostPrivilegeLevel",
      listed: false,
    });
    expect(resolveAttributeKey(HOST_PRIVILEGE_LEVEL, {}, undefined).key).toBe("HostPrivilegeLevel");
  });

  it("never shows a UEFI password", () => {
    expect(maskSecrets({ UefiPassword: "secret", CurrentUefiPassword: "", EnableSMMU: true })).toEqual({
      UefiPassword: REDACTED,
      CurrentUefiPassword: "",
      EnableSMMU: true,
    });
  });
});

describe("machine setup plan", () => {
  const oem = {
    HostRshim: "Enabled",
    Actions: {
      "#HostRshim.Set": { target: "/redfish/v1/Systems/Bluefield/Oem/Nvidia/Actions/HostRshim.Set" },
    },
  };
  const firmware = parseBmcFirmware("BF-24.10-10");

  it("stages the vendor keys, then the operator profile, and turns host rshim off on BF3 only", () => {
    const current = { HostPrivilegeLevel: "Privileged", InternalCPUModel: "Embedded" };
    const plan = planMachineSetup({ current, firmware, generation: 3, oem, profile: { EnableSMMU: false } });
    expect(plan.attributes).toEqual({
      HostPrivilegeLevel: "Restricted",
      InternalCPUModel: "Embedded",
      EnableSMMU: false,
    });
    expect(plan.hostRshim).toEqual({ target: oem.Actions["#HostRshim.Set"].target, current: "Enabled" });
    expect(
      planMachineSetup({ current, firmware, generation: 2, oem, profile: undefined }).hostRshim,
    ).toBeUndefined();
  });

  it("counts secure boot as done only once the DPU booted without it", () => {
    const plan = planMachineSetup({
      current: { HostPrivilegeLevel: "Restricted", InternalCPUModel: "Embedded" },
      firmware,
      generation: 3,
      oem: { ...oem, HostRshim: "Disabled" },
      profile: undefined,
    });
    const status = (enabled: boolean | null, currentBoot: string | null) =>
      machineSetupDiffs(plan, { enabled, currentBoot, mode: null });
    expect(status(false, "Disabled")).toEqual([]);
    expect(status(false, "Enabled")).toEqual([
      { key: "SecureBoot", expected: "Disabled", actual: "Enabled until the next boot" },
    ]);
    expect(status(true, "Enabled")[0]?.actual).toBe("Enabled");
    expect(status(null, null)[0]?.actual).toBe("unknown");
    expect(machineSetupDiffs(plan, undefined)).toEqual([]);
  });
});

describe("boot options", () => {
  const option = (id: string, name: string, path: string, enabled = true): BootOptionInfo =>
    toBootOptionInfo({
      Id: id,
      BootOptionReference: id,
      DisplayName: name,
      UefiDevicePath: path,
      BootOptionEnabled: enabled,
    });
  const ipv4 = "IPv4(0.0.0.0,0x0,DHCP,0.0.0.0,0.0.0.0,0.0.0.0)";
  const options = [
    option("Boot0000", "NET-NIC_P0-IPV4-HTTP", `PciRoot(0x0)/MAC(5C257308F362,0x1)/${ipv4}/Uri()`),
    option(
      "Boot0001",
      "UEFI HTTPv4 (MAC:5C257308F376 VLAN4040)",
      `MAC(5C257308F376,0x1)/Vlan(4040)/${ipv4}/Uri()`,
    ),
    option("Boot0002", "UEFI HTTPv4 (MAC:5C257308F362)", `PciRoot(0x0)/MAC(5C257308F362,0x1)/${ipv4}/Uri()`),
    option("Boot0003", "UEFI PXEv4 (MAC:5C257308F362)", `PciRoot(0x0)/MAC(5C257308F362,0x1)/${ipv4}`),
    option("Boot0004", "UEFI Non-Block Boot Device", "VenHw(F019E406-8C9C-11E5-8797-001ACA00BFC4)"),
    option("Boot0005", "ubuntu0", "HD(1,GPT,6B1F4C2A,0x800,0x19000)/\\EFI\\ubuntu\\shimaa64.efi"),
    option("Boot0006", "UEFI PXEv4 (MAC:5C257308F363)", `PciRoot(0x0)/MAC(5C257308F363,0x1)/${ipv4}`, false),
  ];
  const order = options.map((o) => o.reference);

  it("picks UEFI HTTPv4 of the MAC exactly, then its VLAN variant", () => {
    expect(pickDpuHttpOption(options, "5C:25:73:08:F3:62")?.id).toBe("Boot0002");
    expect(pickDpuHttpOption(options, "5C:25:73:08:F3:76")?.id).toBe("Boot0001");
    expect(pickDpuHttpOption(options, "5C:25:73:08:F3:63")).toBeUndefined();
  });

  it("uses a MAC printed in the display name when the device path has none", () => {
    const bare = [toBootOptionInfo({ Id: "Boot0009", DisplayName: "UEFI HTTPv4 (MAC:5C257308F399)" })];
    expect(pickDpuHttpOption(bare, "5C:25:73:08:F3:99")?.id).toBe("Boot0009");
  });

  it("boot-first picks the BlueField entry earliest in the order, else any option of the target", () => {
    expect(pickBootFirstOption(options, order, "hdd")?.id).toBe("Boot0004");
    expect(pickBootFirstOption(options, order, "pxe")?.id).toBe("Boot0003");
    expect(pickBootFirstOption(options, ["Boot0002", "Boot0001"], "uefiHttp")?.id).toBe("Boot0002");
    expect(pickBootFirstOption(options.slice(5), order, "hdd")?.id).toBe("Boot0005");
  });
});
