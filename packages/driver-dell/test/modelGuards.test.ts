import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  BIOS,
  BIOS_SETTINGS,
  DELL_ATTRIBUTES,
  DellMockup,
  MANAGER_ATTRIBUTES,
  only,
  SYSTEM,
} from "./support/dellMockup.js";
import { defined } from "./support/expectations.js";
import { DPU_MAC, XE9680 } from "./support/mockups.js";

// The PowerEdge XE9680 (iDRAC 7.10) cannot PXE boot, takes boot order changes through its system Settings
// object, and has the newer BIOS serial naming; the last test turns it into an iDRAC 10 attribute set.
const mockup = useDriverMockup({ beforeAll, afterAll, beforeEach }, new DellMockup(XE9680));

describe("PowerEdge XE9680", () => {
  it("locks down with UEFI HTTP as the first boot device, since it cannot PXE boot", async () => {
    await mockup.driver.setLockdown(true);
    expect(mockup.takeWrites()[0]?.body.Attributes).toEqual({
      "Racadm.1.Enable": "Disabled",
      "ServerBoot.1.FirstBootDevice": "UefiHttp",
      "ServerBoot.1.BootOnce": "Disabled",
    });
    await mockup.driver.setLockdown(false);
    expect(await mockup.driver.lockdownStatus()).toMatchObject({ state: "disabled" });
  });

  it("boots once over UEFI HTTP and refuses PXE", async () => {
    await mockup.driver.setLockdown(false);
    mockup.takeWrites();
    await mockup.driver.bootOnce("uefiHttp");
    expect(mockup.takeWrites()).toEqual([
      {
        method: "PATCH",
        path: MANAGER_ATTRIBUTES,
        body: {
          Attributes: { "ServerBoot.1.FirstBootDevice": "UefiHttp", "ServerBoot.1.BootOnce": "Enabled" },
        },
      },
    ]);
    await expect(mockup.driver.bootOnce("pxe")).rejects.toMatchObject({
      code: "not_supported",
      message: "boot once pxe is not supported: the PowerEdge XE9680 cannot PXE boot; boot it over uefiHttp",
    });
  });

  it("stages the DPU-first boot order through the system's Settings object", async () => {
    const job = defined(await mockup.driver.setBootOrderDpuFirst(DPU_MAC.XE9680));
    expect(mockup.takeWrites()).toEqual([
      {
        method: "PATCH",
        path: `${SYSTEM}/Settings`,
        body: { Boot: { BootOrder: ["Boot0000", "Boot0001"] } },
      },
    ]);
    await mockup.reboot();
    expect(await mockup.driver.jobStatus(job)).toMatchObject({ state: "completed" });
    expect(await mockup.bootOrder()).toEqual(["Boot0000", "Boot0001"]);
  });

  it("sets up the serial console with the newer BIOS naming (Serial1Com2Serial2Com1, OnConRedirAuto)", async () => {
    await mockup.setBiosAttributes({ SerialComm: "Off" });
    await mockup.driver.setupSerialConsole();
    expect(only(mockup.takeWrites(), "PATCH", BIOS_SETTINGS)[0]?.body.Attributes).toEqual({
      SerialComm: "OnConRedirAuto",
    });
    await mockup.reboot();
    expect(await mockup.driver.serialConsoleStatus()).toMatchObject({
      state: "enabled",
      message: expect.stringContaining("SerialPortAddress=Serial1Com2Serial2Com1"),
    });
  });

  it("skips what an iDRAC 10 lacks: RedirAfterBoot, OS-BMC, the Managers/{id}/Attributes alias", async () => {
    const bios = await mockup.service.read(BIOS);
    const { RedirAfterBoot: _r, ...biosAttributes } = (bios?.Attributes ?? {}) as Record<string, string>;
    mockup.service.write(BIOS, { ...bios, Attributes: { ...biosAttributes, BootMode: "Uefi" } });
    const oem = await mockup.service.read(DELL_ATTRIBUTES);
    const {
      "OS-BMC.1.AdminState": _o,
      "OS-BMC.1.PTMode": _p,
      ...oemAttributes
    } = (oem?.Attributes ?? {}) as Record<string, string>;
    mockup.service.write(DELL_ATTRIBUTES, { ...oem, Attributes: oemAttributes });
    mockup.service.remove(MANAGER_ATTRIBUTES);

    const { job } = await mockup.driver.machineSetup({ bootInterfaceMac: DPU_MAC.XE9680 });
    const requests = mockup.takeWrites();
    const staged = only(requests, "PATCH", BIOS_SETTINGS)[0]?.body.Attributes as Record<string, string>;
    expect(staged).toMatchObject({
      SerialComm: "OnConRedirAuto",
      SerialPortAddress: "Serial1Com2Serial2Com1",
    });
    expect(Object.keys(staged)).not.toContain("RedirAfterBoot");
    expect(Object.keys(staged)).not.toContain("BootMode");
    // Remote access went to DellAttributes after Managers/{id}/Attributes answered 404.
    expect(only(requests, "PATCH", DELL_ATTRIBUTES).map((r) => r.body.Attributes)).toEqual([
      { "WebServer.1.HostHeaderCheck": "Disabled", "IPMILan.1.Enable": "Enabled" },
      expect.objectContaining({ "SSH.1.Enable": "Enabled", "IPMISOL.1.BaudRate": "115200" }),
    ]);
    await mockup.reboot();
    expect(await mockup.driver.jobStatus(defined(job))).toMatchObject({ state: "completed" });
    expect(await mockup.driver.machineSetupStatus({ bootInterfaceMac: DPU_MAC.XE9680 })).toEqual({
      done: true,
      diffs: [],
    });
  });
});
