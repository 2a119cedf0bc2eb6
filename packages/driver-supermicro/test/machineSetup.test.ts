import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { supermicroMockup } from "./support/mockups.js";

const PERFORMANCE = { performance: { "Package C State": "C0/C1 state" } };
const DPU_821GE = "B8:3F:D2:5A:10:01";
const DPU_121H = "b8-3f-d2-6b-20-01";

describe("machine setup on SYS-821GE-TNHR (X13 keys Name_XXXX, standard boot order)", () => {
  const bmc = useDriverMockup(
    { beforeAll, afterAll, beforeEach },
    supermicroMockup("sys-821ge-tnhr", { settings: { biosProfiles: { "SYS-821GE-TNHR": PERFORMANCE } } }),
  );

  const BIOS_CHANGES = {
    QuietBoot_002D: false,
    Re_tryBoot_0032: "EFI Boot",
    CSMSupport_0121: "Disabled",
    TXTSupport_0062: "Enabled",
    TXTSupport_0072: "Enabled",
    SR_IOVSupport_0047: "Enabled",
    IPv4PXESupport_00F4: "Disabled",
    PackageCState_3D25: "C0/C1 state",
  };

  it("reports, before setup, every setting it will change with the value the BMC has now", async () => {
    const status = await bmc.driver.machineSetupStatus({ bootInterfaceMac: DPU_821GE });
    expect(status.done).toBe(false);
    expect(status.diffs).toEqual([
      { key: "QuietBoot_002D", expected: "false", actual: "true" },
      { key: "Re_tryBoot_0032", expected: "EFI Boot", actual: "Disabled" },
      { key: "CSMSupport_0121", expected: "Disabled", actual: "Enabled" },
      { key: "TXTSupport_0062", expected: "Enabled", actual: "Disabled" },
      { key: "TXTSupport_0072", expected: "Enabled", actual: "Disabled" },
      { key: "SR_IOVSupport_0047", expected: "Enabled", actual: "Disabled" },
      { key: "IPv4PXESupport_00F4", expected: "Disabled", actual: "Enabled" },
      { key: "PackageCState_3D25", expected: "C0/C1 state", actual: "Auto" },
      { key: "BootOrder", expected: `boot from ${DPU_821GE} first`, actual: "another device first" },
    ]);
    expect(bmc.writes).toEqual([]);
  });

  it("PATCHes the changed attributes on the Bios resource, then puts the DPU's HTTP option first", async () => {
    const result = await bmc.driver.machineSetup({ bootInterfaceMac: DPU_821GE });
    expect(result).toEqual({ rebootRequired: true });
    expect(bmc.writes).toEqual([
      { method: "PATCH", path: "/redfish/v1/Systems/1/Bios", body: { Attributes: BIOS_CHANGES } },
      {
        method: "PATCH",
        path: "/redfish/v1/Systems/1",
        body: { Boot: { BootOrder: ["Boot0012", "Boot0013", "Boot0011", "Boot0010"] } },
      },
    ]);
    // Supermicro stages BIOS changes in Bios/SD until the next boot.
    expect(await bmc.driver.pendingBios()).toEqual(BIOS_CHANGES);
    expect((await bmc.driver.bios()).QuietBoot_002D).toBe(true);
  });

  it("is done once a reboot applied the staged BIOS settings", async () => {
    const before = await bmc.driver.machineSetupStatus({ bootInterfaceMac: DPU_821GE });
    expect(before.diffs.map((d) => d.key)).toEqual(Object.keys(BIOS_CHANGES));
    await bmc.driver.power("ForceRestart");
    expect(await bmc.driver.machineSetupStatus({ bootInterfaceMac: DPU_821GE })).toEqual({
      done: true,
      diffs: [],
    });
    expect(await bmc.driver.pendingBios()).toEqual({});
  });

  it("changes nothing and needs no reboot when run again", async () => {
    expect(await bmc.driver.machineSetup({ bootInterfaceMac: DPU_821GE })).toEqual({ rebootRequired: false });
    expect(bmc.writes).toEqual([]);
  });

  it("lets an explicit profile win over the configured one", async () => {
    const status = await bmc.driver.machineSetupStatus({ biosProfile: { PackageCState: "Auto" } });
    expect(status.diffs).toEqual([{ key: "PackageCState_3D25", expected: "Auto", actual: "C0/C1 state" }]);
  });

  it("refuses a profile attribute this BIOS lacks before sending anything, and reports it as missing", async () => {
    const options = { biosProfile: { "Hyper-Threading [ALL]": "Disable", SubNumaClustering: "Enable" } };
    await expect(bmc.driver.machineSetup(options)).rejects.toMatchObject({
      code: "bios_attribute_unknown",
      details: { names: ["SubNumaClustering"] },
    });
    expect(bmc.writes).toEqual([]);
    expect((await bmc.driver.machineSetupStatus(options)).diffs).toEqual([
      { key: "Hyper_Threading_ALL__F27F", expected: "Disable", actual: "Enable" },
      { key: "SubNumaClustering", expected: "Enable", actual: "(missing)" },
    ]);
  });

  it("asks for a reboot and a second run while the DPU's boot option is not listed yet", async () => {
    const unlisted = "B8:3F:D2:5A:10:02";
    expect(await bmc.driver.machineSetup({ bootInterfaceMac: unlisted })).toEqual({ rebootRequired: true });
    expect(bmc.writes).toEqual([]);
    expect((await bmc.driver.machineSetupStatus({ bootInterfaceMac: unlisted })).diffs).toEqual([
      { key: "BootOrder", expected: `boot from ${unlisted} first`, actual: "another device first" },
    ]);
  });

  it("includes the serial console when SOL is not at the defaults", async () => {
    const restore = await bmc.save(["/redfish/v1/Managers/1/SerialInterfaces/1"]);
    await bmc.server.service.merge("/redfish/v1/Managers/1/SerialInterfaces/1", { BitRate: "9600" });
    try {
      expect((await bmc.driver.machineSetupStatus({})).diffs).toEqual([
        {
          key: "SerialConsole",
          expected: "enabled",
          actual:
            "partial (enabled: SSH serial console, console sessions allowed, SOL serial port; disabled: SOL port defaults (BitRate=9600))",
        },
      ]);
    } finally {
      restore();
    }
  });
});

describe("machine setup on SYS-121H-TNR (older keys Name#XXXX, fixed boot order only)", () => {
  const bmc = useDriverMockup({ beforeAll, afterAll, beforeEach }, supermicroMockup("sys-121h-tnr"));

  it("writes the older attribute keys and puts the DPU's HTTP device first in the fixed boot order", async () => {
    expect(await bmc.driver.machineSetup({ bootInterfaceMac: DPU_121H })).toEqual({ rebootRequired: true });
    expect(bmc.writes).toEqual([
      {
        method: "PATCH",
        path: "/redfish/v1/Systems/1/Bios",
        body: {
          Attributes: {
            "QuietBoot#002D": false,
            "Re-tryBoot#0032": "EFI Boot",
            "TXTSupport#0062": "Enabled",
            "DeviceSelect#005F": "TPM 2.0",
            "IntelVTforDirectedI/O(VT-d)#1E32": "Enable",
            "IPv4PXESupport#00F4": "Disabled",
            "IPv6PXESupport#00F6": "Disabled",
          },
        },
      },
      {
        method: "PATCH",
        path: "/redfish/v1/Systems/1/Oem/Supermicro/FixedBootOrder",
        body: {
          FixedBootOrder: [
            "UEFI Network:(B3/D0/F0) UEFI PXE IPv4 Intel(R) Ethernet Controller X710 - 3CECEF2C4D50",
            "UEFI Hard Disk",
            ...Array.from({ length: 7 }, () => "Disabled"),
          ],
          UEFINetwork: [
            "(B1/D0/F0) UEFI HTTP IPv4 Mellanox Network Adapter - B8:3F:D2:6B:20:01 - B83FD26B2001",
            "(B3/D0/F0) UEFI PXE IPv4 Intel(R) Ethernet Controller X710 - 3CECEF2C4D50",
            "(B1/D0/F0) UEFI PXE IPv4 Mellanox Network Adapter - B8:3F:D2:6B:20:01 - B83FD26B2001",
            "(B1/D0/F0) UEFI PXE IPv6 Mellanox Network Adapter - B8:3F:D2:6B:20:01 - B83FD26B2001",
          ],
        },
      },
    ]);
  });

  it("is done after the reboot", async () => {
    expect((await bmc.driver.machineSetupStatus({ bootInterfaceMac: DPU_121H })).done).toBe(false);
    await bmc.driver.power("ForceRestart");
    expect(await bmc.driver.machineSetupStatus({ bootInterfaceMac: DPU_121H })).toEqual({
      done: true,
      diffs: [],
    });
  });
});
