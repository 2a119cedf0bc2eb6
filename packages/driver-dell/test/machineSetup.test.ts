import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  BIOS,
  BIOS_SETTINGS,
  DELL_ATTRIBUTES,
  DellMockup,
  JOBS,
  MANAGER,
  MANAGER_ATTRIBUTES,
  only,
} from "./support/dellMockup.js";
import { defined } from "./support/expectations.js";
import { DPU_MAC, R750 } from "./support/mockups.js";

const SETTINGS = {
  biosProfiles: {
    "PowerEdge R750": { performance: { SysProfile: "PerfOptimized", ProcCStates: "Disabled" } },
  },
};

/** NICo's Dell machine setup table for the R750 mockup's BIOS, DPU in slot 5. */
const TABLE = {
  InBandManageabilityInterface: "Disabled",
  UefiVariableAccess: "Standard",
  SerialComm: "OnConRedir",
  SerialPortAddress: "Com1",
  FailSafeBaud: "115200",
  ConTermType: "Vt100Vt220",
  RedirAfterBoot: "Enabled",
  SriovGlobalEnable: "Enabled",
  TpmSecurity: "On",
  Tpm2Hierarchy: "Clear",
  Tpm2Algorithm: "SHA256",
};
const DPU_BOOT = {
  HttpDev1EnDis: "Enabled",
  PxeDev1EnDis: "Disabled",
  HttpDev1Interface: "NIC.Slot.5-1",
  SetBootOrderEn: "NIC.Slot.5-1",
  HttpDev1TlsMode: "None",
  SetBootOrderDis: "Disk.Bay.0:Enclosure.Internal.0-1,NIC.PxeDevice.1-1",
};
const REMOTE_ACCESS = {
  "SSH.1.Enable": "Enabled",
  "SerialRedirection.1.Enable": "Enabled",
  "IPMILan.1.Enable": "Enabled",
  "IPMISOL.1.Enable": "Enabled",
  "IPMISOL.1.BaudRate": "115200",
  "IPMISOL.1.MinPrivilege": "Administrator",
};

const mockup = useDriverMockup(
  { beforeAll, afterAll, beforeEach },
  new DellMockup(R750, { settings: SETTINGS }),
);

describe("machine setup", () => {
  it("stages the table, the DPU's HTTP boot and the model profile in one job, then the iDRAC settings", async () => {
    const result = await mockup.driver.machineSetup({ bootInterfaceMac: DPU_MAC.R750 });
    expect(mockup.takeWrites()).toEqual([
      {
        method: "PATCH",
        path: BIOS_SETTINGS,
        body: {
          "@Redfish.SettingsApplyTime": { ApplyTime: "OnReset" },
          Attributes: { ...TABLE, ...DPU_BOOT, SysProfile: "PerfOptimized", ProcCStates: "Disabled" },
        },
      },
      {
        method: "PATCH",
        path: DELL_ATTRIBUTES,
        body: {
          Attributes: {
            "WebServer.1.HostHeaderCheck": "Disabled",
            "IPMILan.1.Enable": "Enabled",
            "OS-BMC.1.AdminState": "Disabled",
          },
        },
      },
      { method: "PATCH", path: MANAGER_ATTRIBUTES, body: { Attributes: REMOTE_ACCESS } },
    ]);
    expect(result).toEqual({
      job: { kind: "job", id: expect.stringMatching(/^JID_\d{12}$/), path: `${JOBS}/${result.job?.id}` },
      rebootRequired: true,
    });
    expect(await mockup.driver.jobStatus(defined(result.job))).toMatchObject({
      state: "scheduled",
      message: "Task successfully scheduled.",
    });
    // The iDRAC settings apply at once, on both resources that show them.
    expect(await mockup.attributes(MANAGER_ATTRIBUTES)).toMatchObject({
      ...REMOTE_ACCESS,
      "OS-BMC.1.AdminState": "Disabled",
    });
  });

  it("is done only once the reboot ran the job: TPM cleared, HTTP device 1 on the DPU first", async () => {
    const options = { bootInterfaceMac: DPU_MAC.R750 };
    const { job } = await mockup.driver.machineSetup(options);
    const before = await mockup.driver.machineSetupStatus(options);
    expect(before.done).toBe(false);
    expect(before.diffs).toEqual(
      expect.arrayContaining([
        { key: "InBandManageabilityInterface", expected: "Disabled", actual: "Enabled" },
        { key: "SysProfile", expected: "PerfOptimized", actual: "PerfPerWattOptimizedDapc" },
        { key: "BootOrder[0]", expected: "HTTP Device 1: NIC in Slot 5 Port 1", actual: "ubuntu" },
      ]),
    );
    await mockup.reboot();
    expect(await mockup.driver.jobStatus(defined(job))).toMatchObject({
      state: "completed",
      percentComplete: 100,
    });
    expect(await mockup.attributes(BIOS)).toMatchObject({
      Tpm2Hierarchy: "Enabled",
      HttpDev1Interface: "NIC.Slot.5-1",
    });
    expect(await mockup.driver.machineSetupStatus(options)).toEqual({ done: true, diffs: [] });
    expect(await mockup.driver.isBootOrderDpuFirst(DPU_MAC.R750)).toBe(true);
  });

  it("clears a queued job first and carries the values it staged into the new job", async () => {
    await mockup.stageBios({ MemTest: "Enabled" });
    await mockup.addJob("JID_100000000001", { JobState: "Scheduled", JobType: "BIOSConfiguration" });
    const { job } = await mockup.driver.machineSetup({});
    const requests = mockup.takeWrites();
    expect(requests[0]).toMatchObject({
      method: "POST",
      path: `${MANAGER}/Oem/Dell/DellJobService/Actions/DellJobService.DeleteJobQueue`,
      body: { JobID: "JID_CLEARALL" },
    });
    expect(only(requests, "PATCH", BIOS_SETTINGS)[0]?.body.Attributes).toMatchObject({
      MemTest: "Enabled",
      ...TABLE,
    });
    expect(await mockup.job("JID_100000000001")).toBeUndefined();
    expect(await mockup.driver.jobStatus(defined(job))).toMatchObject({
      state: "scheduled",
    });
  });

  it("takes an explicit profile over the configured one, and leaves boot devices alone without a MAC", async () => {
    await mockup.driver.machineSetup({ biosProfile: { SysProfile: "PerfPerWattOptimizedOs" } });
    const attributes = only(mockup.takeWrites(), "PATCH", BIOS_SETTINGS)[0]?.body.Attributes as Record<
      string,
      unknown
    >;
    expect(attributes).toMatchObject({ ...TABLE, SysProfile: "PerfPerWattOptimizedOs" });
    expect(
      Object.keys(attributes).filter((key) => /^(HttpDev|PxeDev|SetBootOrder|ProcCStates)/.test(key)),
    ).toEqual([]);
  });

  it("refuses a MAC the host does not have before writing anything", async () => {
    await expect(mockup.driver.machineSetup({ bootInterfaceMac: "02:00:00:00:00:99" })).rejects.toMatchObject(
      {
        code: "dpu_nic_not_found",
        message: expect.stringContaining("B8:3F:D2:AA:10:01"),
      },
    );
    expect(mockup.takeWrites()).toEqual([]);
  });

  it("fails with the BMC's message on an attribute the BIOS does not know, writing nothing else", async () => {
    await expect(
      mockup.driver.machineSetup({ biosProfile: { NoSuchAttribute: "On" } }),
    ).rejects.toMatchObject({
      code: "redfish_http_error",
      details: { httpStatus: 400, messageIds: ["Base.1.12.PropertyUnknown"] },
      message: expect.stringContaining("NoSuchAttribute"),
    });
    expect(mockup.takeWrites().map((r) => r.path)).toEqual([BIOS_SETTINGS]);
  });

  it("reports iDRAC settings and remote access that drifted", async () => {
    await mockup.setManagerAttributes({
      "SSH.1.Enable": "Disabled",
      "WebServer.1.HostHeaderCheck": "Enabled",
    });
    const status = await mockup.driver.machineSetupStatus({});
    expect(status.diffs).toEqual(
      expect.arrayContaining([
        { key: "WebServer.1.HostHeaderCheck", expected: "Disabled", actual: "Enabled" },
        {
          key: "remoteAccess",
          expected: "enabled",
          actual: expect.stringMatching(/^partial: SSH\.1\.Enable=Disabled/),
        },
      ]),
    );
    expect(status.diffs.map((d) => d.key)).not.toContain("BootOrder[0]");
  });
});
