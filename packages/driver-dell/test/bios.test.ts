import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BIOS, BIOS_SETTINGS, DellMockup, JOBS, only } from "./support/dellMockup.js";
import { R750 } from "./support/mockups.js";

const ON_RESET = { "@Redfish.SettingsApplyTime": { ApplyTime: "OnReset" } };
const CLEAR_PENDING = `${BIOS_SETTINGS}/Actions/Oem/DellManager.ClearPending`;

const mockup = useDriverMockup({ beforeAll, afterAll, beforeEach }, new DellMockup(R750));

describe("BIOS changes", () => {
  it("are staged with OnReset, applied by the iDRAC's job at the next reboot", async () => {
    const job = await mockup.driver.setBios({ MemTest: "Enabled", AcPwrRcvryUserDelay: 90 });
    expect(mockup.takeWrites()).toEqual([
      {
        method: "PATCH",
        path: BIOS_SETTINGS,
        body: { ...ON_RESET, Attributes: { MemTest: "Enabled", AcPwrRcvryUserDelay: 90 } },
      },
    ]);
    expect(job).toEqual({ kind: "job", id: expect.stringMatching(/^JID_/), path: `${JOBS}/${job.id}` });
    expect(await mockup.driver.pendingBios()).toEqual({ MemTest: "Enabled", AcPwrRcvryUserDelay: 90 });
    expect(await mockup.driver.jobStatus(job)).toMatchObject({ state: "scheduled" });
    await mockup.reboot();
    expect(await mockup.driver.jobStatus(job)).toMatchObject({
      state: "completed",
      message: "Job completed successfully.",
    });
    expect(await mockup.attributes(BIOS)).toMatchObject({ MemTest: "Enabled", AcPwrRcvryUserDelay: 90 });
    expect(await mockup.driver.pendingBios()).toEqual({});
  });

  it("made while a job is queued replace it with one job carrying both changes", async () => {
    const first = await mockup.driver.setBios({ AcPwrRcvry: "Off" });
    const second = await mockup.driver.setBios({ NumLock: "Off" });
    const requests = mockup.takeWrites();
    expect(
      only(
        requests,
        "POST",
        "/redfish/v1/Managers/iDRAC.Embedded.1/Oem/Dell/DellJobService/Actions/DellJobService.DeleteJobQueue",
      ),
    ).toHaveLength(1);
    expect(only(requests, "PATCH", BIOS_SETTINGS).at(-1)?.body).toEqual({
      ...ON_RESET,
      Attributes: { AcPwrRcvry: "Off", NumLock: "Off" },
    });
    await expect(mockup.driver.jobStatus(first)).rejects.toMatchObject({ code: "job_not_found" });
    expect(await mockup.driver.jobStatus(second)).toMatchObject({ state: "scheduled" });
    expect(await mockup.driver.pendingBios()).toEqual({ AcPwrRcvry: "Off", NumLock: "Off" });
  });

  it("get a job created for them when the firmware only staged them", async () => {
    mockup.intercept("PATCH", /Bios\/Settings$/, () => ({ status: 200, headers: {}, body: {} }));
    const job = await mockup.driver.setBios({ MemTest: "Enabled" });
    expect(mockup.takeWrites().map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      { method: "PATCH", path: BIOS_SETTINGS, body: { ...ON_RESET, Attributes: { MemTest: "Enabled" } } },
      { method: "POST", path: JOBS, body: { TargetSettingsURI: BIOS_SETTINGS } },
    ]);
    expect(await mockup.driver.jobStatus(job)).toMatchObject({ state: "scheduled" });
  });

  it("cannot be empty", async () => {
    await expect(mockup.driver.setBios({})).rejects.toMatchObject({ code: "invalid_argument" });
  });

  it("are cleared with their job, or with Dell's ClearPending when nothing is queued", async () => {
    await mockup.driver.setBios({ MemTest: "Enabled" });
    await mockup.driver.clearPendingBios();
    expect(await mockup.driver.pendingBios()).toEqual({});
    expect(mockup.takeWrites().map((r) => r.path)).not.toContain(CLEAR_PENDING);

    await mockup.stageBios({ NumLock: "Off" });
    await mockup.driver.clearPendingBios();
    expect(mockup.takeWrites().map((r) => r.path)).toEqual([CLEAR_PENDING]);
    expect(await mockup.driver.pendingBios()).toEqual({});
    await mockup.driver.clearPendingBios();
    expect(mockup.takeWrites()).toEqual([]);
  });
});

describe("TPM clear", () => {
  it("stages TpmSecurity On and Tpm2Hierarchy Clear; after the reboot the hierarchy is Enabled again", async () => {
    await mockup.driver.clearTpm();
    expect(only(mockup.takeWrites(), "PATCH", BIOS_SETTINGS)[0]?.body).toEqual({
      ...ON_RESET,
      Attributes: { TpmSecurity: "On", Tpm2Hierarchy: "Clear" },
    });
    expect(await mockup.driver.pendingBios()).toEqual({ Tpm2Hierarchy: "Clear" });
    await mockup.reboot();
    expect(await mockup.attributes(BIOS)).toMatchObject({ TpmSecurity: "On", Tpm2Hierarchy: "Enabled" });
    expect(await mockup.driver.pendingBios()).toEqual({});
  });
});

describe("serial console", () => {
  it("turns remote access on at once and stages BIOS redirection; enabled once the host rebooted", async () => {
    await mockup.setBiosAttributes({ SerialComm: "Off", RedirAfterBoot: "Disabled" });
    await mockup.setManagerAttributes({
      "SSH.1.Enable": "Disabled",
      "SerialRedirection.1.Enable": "Disabled",
      "IPMILan.1.Enable": "Disabled",
      "IPMISOL.1.Enable": "Disabled",
      "IPMISOL.1.BaudRate": "57600",
    });
    expect(await mockup.driver.serialConsoleStatus()).toMatchObject({ state: "disabled" });
    await mockup.driver.setupSerialConsole();
    const requests = mockup.takeWrites();
    expect(only(requests, "PATCH", BIOS_SETTINGS)[0]?.body).toEqual({
      ...ON_RESET,
      Attributes: { SerialComm: "OnConRedir", RedirAfterBoot: "Enabled" },
    });
    expect(await mockup.driver.serialConsoleStatus()).toMatchObject({
      state: "partial",
      message: expect.stringContaining("SerialComm=Off"),
    });
    await mockup.driver.setupSerialConsole();
    expect(only(mockup.takeWrites(), "PATCH", BIOS_SETTINGS)).toEqual([]);
    await mockup.reboot();
    expect(await mockup.driver.serialConsoleStatus()).toMatchObject({ state: "enabled" });
  });

  it("accepts OnConRedirAuto (an R640's and newer BIOS's redirection)", async () => {
    await mockup.setBiosAttributes({ SerialComm: "OnConRedirAuto" });
    expect(await mockup.driver.serialConsoleStatus()).toMatchObject({ state: "enabled" });
    await mockup.setBiosAttributes({ SerialComm: "OnConRedir" });
  });
});
