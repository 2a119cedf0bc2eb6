import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  BIOS_SETTINGS,
  DELL_ATTRIBUTES,
  DellMockup,
  idracError,
  MANAGER_ATTRIBUTES,
  only,
} from "./support/dellMockup.js";
import { R750 } from "./support/mockups.js";

const UNLOCKED = { "Lockdown.1.SystemLockdown": "Disabled", "Racadm.1.Enable": "Enabled" };
const LOCKED = { "Lockdown.1.SystemLockdown": "Enabled", "Racadm.1.Enable": "Disabled" };

const mockup = useDriverMockup({ beforeAll, afterAll, beforeEach }, new DellMockup(R750));
beforeEach(async () => {
  await mockup.setManagerAttributes(UNLOCKED);
  await mockup.setBiosAttributes({ InBandManageabilityInterface: "Enabled", UefiVariableAccess: "Standard" });
  await mockup.resetQueue();
});

describe("lockdown", () => {
  it("enables in two writes: racadm and PXE as first boot device, then System Lockdown alone", async () => {
    await mockup.driver.setLockdown(true);
    expect(mockup.takeWrites()).toEqual([
      {
        method: "PATCH",
        path: DELL_ATTRIBUTES,
        body: {
          Attributes: {
            "Racadm.1.Enable": "Disabled",
            "ServerBoot.1.FirstBootDevice": "PXE",
            "ServerBoot.1.BootOnce": "Disabled",
          },
        },
      },
      {
        method: "PATCH",
        path: DELL_ATTRIBUTES,
        body: { Attributes: { "Lockdown.1.SystemLockdown": "Enabled" } },
      },
    ]);
    expect(await mockup.driver.lockdownStatus()).toEqual({
      state: "enabled",
      message: "Lockdown.1.SystemLockdown=Enabled, Racadm.1.Enable=Disabled",
    });
    await mockup.driver.setLockdown(true);
    expect(mockup.takeWrites()).toEqual([]);
  });

  it("reports partial and completes it, lifting System Lockdown first so the other writes are accepted", async () => {
    await mockup.setManagerAttributes({ "Lockdown.1.SystemLockdown": "Enabled" });
    expect(await mockup.driver.lockdownStatus()).toMatchObject({ state: "partial" });
    await mockup.driver.setLockdown(true);
    expect(mockup.takeWrites().map((r) => r.body.Attributes)).toEqual([
      { "Lockdown.1.SystemLockdown": "Disabled" },
      expect.objectContaining({ "Racadm.1.Enable": "Disabled" }),
      { "Lockdown.1.SystemLockdown": "Enabled" },
    ]);
    expect(await mockup.driver.lockdownStatus()).toMatchObject({ state: "enabled" });
  });

  it("disables System Lockdown and racadm at once, and stages the BIOS half when it is locked too", async () => {
    await mockup.setManagerAttributes(LOCKED);
    await mockup.setBiosAttributes({ InBandManageabilityInterface: "Disabled" });
    await mockup.driver.setLockdown(false);
    const requests = mockup.takeWrites();
    expect(requests[0]).toEqual({ method: "PATCH", path: DELL_ATTRIBUTES, body: { Attributes: UNLOCKED } });
    expect(only(requests, "PATCH", BIOS_SETTINGS)).toEqual([
      {
        method: "PATCH",
        path: BIOS_SETTINGS,
        body: {
          "@Redfish.SettingsApplyTime": { ApplyTime: "OnReset" },
          Attributes: { InBandManageabilityInterface: "Enabled" },
        },
      },
    ]);
    expect(await mockup.driver.lockdownStatus()).toMatchObject({ state: "disabled" });
    // Asked again before the reboot, nothing new is staged: the committed job already carries it.
    await mockup.driver.setLockdown(false);
    expect(mockup.takeWrites()).toEqual([]);
  });

  it("ignores a BIOS that keeps its lockdown attributes read-only", async () => {
    await mockup.setBiosAttributes({ UefiVariableAccess: "Controlled" });
    mockup.intercept("PATCH", /Bios\/Settings$/, () =>
      idracError(400, "IDRAC.2.8.SYS409", "UefiVariableAccess is read-only and cannot be set."),
    );
    await expect(mockup.driver.setLockdown(false)).resolves.toBeUndefined();
    expect(await mockup.driver.lockdownStatus()).toMatchObject({ state: "disabled" });
  });

  it("turns the iDRAC's refusals while locked into bmc_locked_down", async () => {
    await mockup.setManagerAttributes(LOCKED);
    await expect(mockup.driver.setBios({ MemTest: "Enabled" })).rejects.toMatchObject({
      code: "bmc_locked_down",
      message: expect.stringMatching(/^set BIOS was refused: the iDRAC is locked down/),
    });
    await mockup.addJob("JID_100000000002", { JobState: "Scheduled", JobType: "BIOSConfiguration" });
    await expect(mockup.driver.clearTpm()).rejects.toMatchObject({ code: "bmc_locked_down" });
    expect(mockup.takeWrites().map((r) => r.path)).toEqual([
      BIOS_SETTINGS,
      "/redfish/v1/Managers/iDRAC.Embedded.1/Oem/Dell/DellJobService/Actions/DellJobService.DeleteJobQueue",
    ]);
    await expect(mockup.driver.bootOnce("pxe")).rejects.toMatchObject({ code: "bmc_locked_down" });
    expect(only(mockup.takeWrites(), "PATCH", MANAGER_ATTRIBUTES)).toHaveLength(1);
  });

  it("refuses an AC power cycle while locked down or while UEFI variables are controlled", async () => {
    await mockup.setManagerAttributes(LOCKED);
    await expect(mockup.driver.power("ACPowercycle")).rejects.toMatchObject({ code: "bmc_locked_down" });
    await mockup.setManagerAttributes(UNLOCKED);
    await mockup.setBiosAttributes({ UefiVariableAccess: "Controlled" });
    await expect(mockup.driver.power("ACPowercycle")).rejects.toMatchObject({
      code: "bmc_locked_down",
      message: expect.stringContaining("UefiVariableAccess is Standard"),
    });
    expect(mockup.takeWrites()).toEqual([]);
  });

  it("is not supported where the iDRAC has no System Lockdown (no Enterprise license)", async () => {
    const attributes = await mockup.attributes(DELL_ATTRIBUTES);
    const { "Lockdown.1.SystemLockdown": _gone, ...rest } = attributes;
    const resource = await mockup.service.read(DELL_ATTRIBUTES);
    mockup.service.write(DELL_ATTRIBUTES, { ...resource, Attributes: rest });
    try {
      await expect(mockup.driver.lockdownStatus()).rejects.toMatchObject({ code: "not_supported" });
      await expect(mockup.driver.setLockdown(true)).rejects.toMatchObject({ code: "not_supported" });
    } finally {
      await mockup.setManagerAttributes(UNLOCKED);
    }
  });
});
