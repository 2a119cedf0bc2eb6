import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DellMockup, MANAGER_ATTRIBUTES, SYSTEM } from "./support/dellMockup.js";
import { defined } from "./support/expectations.js";
import { DPU_MAC, R750 } from "./support/mockups.js";

const INITIAL_ORDER = ["Boot0002", "Boot0001", "Boot0000", "Boot0003"];

const mockup = useDriverMockup({ beforeAll, afterAll, beforeEach }, new DellMockup(R750));
beforeEach(async () => {
  await mockup.service.merge(SYSTEM, { Boot: { BootOrder: INITIAL_ORDER } });
  await mockup.setManagerAttributes({
    "ServerBoot.1.FirstBootDevice": "Normal",
    "ServerBoot.1.BootOnce": "Enabled",
  });
  await mockup.resetQueue();
});

describe("boot once and boot first", () => {
  it("set the iDRAC's first boot device; a one-time boot falls back to Normal after it", async () => {
    await mockup.driver.bootOnce("pxe");
    expect(mockup.takeWrites()).toEqual([
      {
        method: "PATCH",
        path: MANAGER_ATTRIBUTES,
        body: { Attributes: { "ServerBoot.1.FirstBootDevice": "PXE", "ServerBoot.1.BootOnce": "Enabled" } },
      },
    ]);
    await mockup.reboot();
    expect(await mockup.attributes(MANAGER_ATTRIBUTES)).toMatchObject({
      "ServerBoot.1.FirstBootDevice": "Normal",
    });

    await mockup.driver.bootFirst("hdd");
    expect(mockup.takeWrites().map((r) => r.body)).toEqual([
      { Attributes: { "ServerBoot.1.FirstBootDevice": "HDD", "ServerBoot.1.BootOnce": "Disabled" } },
    ]);
    await mockup.reboot();
    expect(await mockup.attributes(MANAGER_ATTRIBUTES)).toMatchObject({
      "ServerBoot.1.FirstBootDevice": "HDD",
    });
  });

  it("refuse UEFI HTTP on a model that PXE boots, pointing at the DPU-first boot order", async () => {
    await expect(mockup.driver.bootOnce("uefiHttp")).rejects.toMatchObject({
      code: "not_supported",
      message: expect.stringContaining("setBootOrderDpuFirst"),
    });
    await expect(mockup.driver.bootFirst("uefiHttp")).rejects.toMatchObject({ code: "not_supported" });
    expect(mockup.takeWrites()).toEqual([]);
  });
});

describe("boot options", () => {
  it("carry the MAC of the NIC each HTTP and PXE device is bound to", async () => {
    const { order, options } = await mockup.driver.bootOptions();
    expect(order).toEqual(INITIAL_ORDER);
    expect(Object.fromEntries(options.map((o) => [o.displayName, o.mac]))).toEqual({
      "HTTP Device 1: NIC in Slot 5 Port 1": "B8:3F:D2:AA:10:01",
      "PXE Device 1: Embedded NIC 1 Port 1 Partition 1": "C8:4B:D6:52:75:11",
      ubuntu: undefined,
      "Integrated RAID Controller 1: Ubuntu": undefined,
    });
  });
});

describe("DPU-first boot order", () => {
  it("moves the DPU's HTTP device to the front through a BIOS job that runs at the next reboot", async () => {
    const job = defined(await mockup.driver.setBootOrderDpuFirst(DPU_MAC.R750));
    expect(mockup.takeWrites()).toEqual([
      {
        method: "PATCH",
        path: SYSTEM,
        body: { Boot: { BootOrder: ["Boot0000", "Boot0002", "Boot0001", "Boot0003"] } },
      },
    ]);
    expect(job).toMatchObject({ kind: "job", path: expect.stringMatching(/\/Jobs\/JID_\d+$/) });
    expect(await mockup.driver.isBootOrderDpuFirst(DPU_MAC.R750)).toBe(false);
    await mockup.reboot();
    expect(await mockup.driver.jobStatus(job)).toMatchObject({ state: "completed" });
    expect(await mockup.driver.isBootOrderDpuFirst(DPU_MAC.R750)).toBe(true);
    expect(await mockup.driver.setBootOrderDpuFirst(DPU_MAC.R750)).toBeUndefined();
    expect(mockup.takeWrites()).toEqual([]);
  });

  it("names the boot option it expected when the DPU port has no HTTP device", async () => {
    await expect(mockup.driver.setBootOrderDpuFirst("B8:3F:D2:AA:10:02")).rejects.toMatchObject({
      code: "boot_option_not_found",
      message: expect.stringContaining("HTTP Device 1: NIC in Slot 5 Port 2 (run machine setup"),
    });
    expect(await mockup.driver.isBootOrderDpuFirst("B8:3F:D2:AA:10:02")).toBe(false);
    await expect(mockup.driver.isBootOrderDpuFirst("not-a-mac")).rejects.toMatchObject({
      code: "invalid_argument",
    });
  });

  it("is refused with bmc_job_queue_busy while a BIOS job is committed", async () => {
    await mockup.addJob("JID_100000000003", { JobState: "Scheduled", JobType: "BIOSConfiguration" });
    await expect(mockup.driver.setBootOrderDpuFirst(DPU_MAC.R750)).rejects.toMatchObject({
      code: "bmc_job_queue_busy",
      details: { messageIds: ["IDRAC.2.8.SYS011"] },
    });
    expect(await mockup.bootOrder()).toEqual(INITIAL_ORDER);
  });
});
