import type { MultipartUpload } from "@racksmith/core/redfish";
import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { redfishRefusal } from "../src/testing/index.js";
import { supermicroMockup } from "./support/mockups.js";

const IMAGE = { filename: "BIOS_X13DEG-OAD_1.6.bin", data: new Uint8Array([1, 2, 3, 4]) };

describe("firmware updates (SYS-821GE-TNHR)", () => {
  const bmc = useDriverMockup({ beforeAll, afterAll, beforeEach }, supermicroMockup("sys-821ge-tnhr"));
  afterEach(() => vi.restoreAllMocks());

  function captureUploads(): MultipartUpload[] {
    const uploads: MultipartUpload[] = [];
    const original = bmc.client.postMultipart.bind(bmc.client);
    vi.spyOn(bmc.client, "postMultipart").mockImplementation(async (path, upload, options) => {
      uploads.push(upload);
      return original(path, upload, options);
    });
    return uploads;
  }

  it.each([
    [
      "BIOS",
      {
        Targets: ["/redfish/v1/Systems/1/Bios"],
        "@Redfish.OperationApplyTime": "OnReset",
        Oem: {
          Supermicro: {
            BIOS: { PreserveME: true, PreserveNVRAM: true, PreserveSMBIOS: true, BackupBIOS: false },
          },
        },
      },
    ],
    [
      "BMC",
      {
        Targets: ["/redfish/v1/Managers/1"],
        "@Redfish.OperationApplyTime": "OnReset",
        Oem: {
          Supermicro: { BMC: { PreserveCfg: true, PreserveSdr: true, PreserveSsl: true, BackupBMC: true } },
        },
      },
    ],
    [
      "CPLDMB",
      {
        Targets: ["/redfish/v1/UpdateService/FirmwareInventory/CPLD_Motherboard"],
        "@Redfish.OperationApplyTime": "OnReset",
      },
    ],
  ])(
    "uploads a %s image with Supermicro's target and preserve options and follows its task",
    async (target, parameters) => {
      const uploads = captureUploads();
      const job = await bmc.driver.updateFirmware({
        method: "multipart",
        ...IMAGE,
        targets: [target],
        applyTime: "OnReset",
      });
      expect(uploads).toEqual([{ parameters, file: { filename: IMAGE.filename, data: IMAGE.data } }]);
      expect(job).toMatchObject({
        kind: "task",
        path: expect.stringMatching(/^\/redfish\/v1\/TaskService\/Tasks\/\d+/),
      });
      expect(await bmc.driver.jobStatus(job)).toMatchObject({
        id: job.id,
        state: "completed",
        percentComplete: 100,
      });
    },
  );

  it("refuses a multipart upload without exactly one known target before uploading", async () => {
    const uploads = captureUploads();
    await expect(bmc.driver.updateFirmware({ method: "multipart", ...IMAGE })).rejects.toMatchObject({
      code: "invalid_argument",
    });
    await expect(
      bmc.driver.updateFirmware({ method: "multipart", ...IMAGE, targets: ["BIOS", "BMC"] }),
    ).rejects.toMatchObject({ code: "invalid_argument" });
    await expect(
      bmc.driver.updateFirmware({ method: "multipart", ...IMAGE, targets: ["PSU1"] }),
    ).rejects.toMatchObject({ code: "invalid_argument", message: expect.stringContaining("PSU1") });
    expect(uploads).toEqual([]);
  });

  it("starts a SimpleUpdate and reports the task", async () => {
    const job = await bmc.driver.updateFirmware({
      method: "simpleUpdate",
      imageUri: "http://192.0.2.10/bmc.bin",
    });
    expect((await bmc.driver.jobStatus(job)).state).toBe("completed");
  });

  it("says firmware_update_busy when an update is already running", async () => {
    bmc.intercept("POST", "UpdateService.SimpleUpdate", () =>
      redfishRefusal(400, "SMC.1.0.OemBiosUpdateIsInProgress", "The BIOS Update was in progress."),
    );
    await expect(
      bmc.driver.updateFirmware({ method: "simpleUpdate", imageUri: "http://192.0.2.10/bios.bin" }),
    ).rejects.toMatchObject({ code: "firmware_update_busy", status: "UNAVAILABLE" });
  });

  it("says system_lockdown_enabled when System Lockdown blocks updates", async () => {
    bmc.intercept("POST", "UpdateService.SimpleUpdate", () =>
      redfishRefusal(
        403,
        "SMC.1.0.OemSystemLockdownEnabled",
        "System is in lockdown mode. This action is forbidden.",
      ),
    );
    await expect(
      bmc.driver.updateFirmware({ method: "simpleUpdate", imageUri: "http://192.0.2.10/bios.bin" }),
    ).rejects.toMatchObject({ code: "system_lockdown_enabled" });
  });

  it("has no HTTP push URI", async () => {
    await expect(bmc.driver.updateFirmware({ method: "httpPush", ...IMAGE })).rejects.toMatchObject({
      code: "not_supported",
    });
  });
});
