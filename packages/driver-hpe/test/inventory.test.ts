import { jsonResponse, useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hpeMockup, MOCKUPS } from "./support/mockups.js";

const UPDATE_SERVICE = "/redfish/v1/UpdateService";

const bmc = useDriverMockup({ beforeAll, afterAll, beforeEach }, hpeMockup(MOCKUPS.gen10));

describe("event logs", () => {
  it("reads the system log from the IML, not the Redfish event log next to it, incrementally", async () => {
    const entries = await bmc.driver.systemEventLog();
    expect(entries.map((e) => [e.id, e.source, e.severity])).toEqual([
      ["1", "IML", "OK"],
      ["2", "IML", "OK"],
      ["3", "IML", "Warning"],
      ["4", "IML", "OK"],
    ]);
    expect(entries[2]?.message).toBe("Power Supply Failure (Power Supply 2) - input lost");
    expect((await bmc.driver.systemEventLog({ sinceId: "2" })).map((e) => e.id)).toEqual(["3", "4"]);
  });

  it("reads the BMC log from the iLO Event Log", async () => {
    const entries = await bmc.driver.bmcEventLog({ limit: 2 });
    expect(entries.map((e) => [e.id, e.source])).toEqual([
      ["2", "IEL"],
      ["3", "IEL"],
    ]);
  });
});

describe("inventory", () => {
  it("adds the adapters only iLO 5's BaseNetworkAdapters lists, without repeating the chassis ones", async () => {
    expect(await bmc.driver.networkAdapters()).toEqual([
      {
        id: "DE07C000",
        chassisId: "1",
        manufacturer: "MLNX",
        model: "BlueField-3 B3220 P-Series FHHL DPU, 200GbE, dual-port QSFP112, PCIe Gen5.0 x16",
        partNumber: "900-9D3B6-00CV-AA0",
        serialNumber: "RSBF3G10001",
        firmwareVersion: "32.41.1000",
      },
      {
        id: "OCP.Slot.10.1",
        chassisId: "1",
        manufacturer: undefined,
        model: "Intel Eth Adptr I350T4 OCPv3",
        partNumber: "P08449-B21",
        serialNumber: "RSI350G1001",
        firmwareVersion: "1.3082.0",
      },
    ]);
  });

  it("lists drives, PCIe devices and unique MACs through the standard resources", async () => {
    expect((await bmc.driver.drives()).map((d) => `${d.storageId}/${d.id}`)).toEqual([
      "DA000000/DA000000",
      "DE009000/0",
      "DE009000/1",
    ]);
    expect(await bmc.driver.pcieDevices()).toHaveLength(5);
    const macs = [
      ...(await bmc.driver.systemEthernetInterfaces()),
      ...(await bmc.driver.managerEthernetInterfaces()),
    ].map((i) => i.mac);
    expect(macs).toHaveLength(7);
    expect(new Set(macs).size).toBe(7);
  });
});

describe("firmware update", () => {
  it("follows iLO 5's flash on the UpdateService when SimpleUpdate answers without a task", async () => {
    const remove = bmc.server.service.use({
      name: "ilo5-simple-update",
      actions: {
        "#UpdateService.SimpleUpdate": async ({ service }) => {
          await service.merge(UPDATE_SERVICE, {
            Oem: { Hpe: { State: "Writing", FlashProgressPercent: 40 } },
          });
          // iLO 5: 200 with a message, no task and no Location.
          return jsonResponse(200, {
            error: {
              code: "iLO.0.10.ExtendedInfo",
              "@Message.ExtendedInfo": [{ MessageId: "iLO.2.15.UpdateInProgress" }],
            },
          });
        },
      },
    });
    try {
      const job = await bmc.driver.updateFirmware({
        method: "simpleUpdate",
        imageUri: "http://192.0.2.1/ilo5.fwpkg",
      });
      expect(job).toEqual({ kind: "job", id: "ilo-flash", path: UPDATE_SERVICE });
      expect(await bmc.driver.jobStatus(job)).toMatchObject({ state: "running", percentComplete: 40 });
      await bmc.server.service.merge(UPDATE_SERVICE, {
        Oem: { Hpe: { State: "Complete", FlashProgressPercent: 100 } },
      });
      expect(await bmc.driver.jobStatus(job)).toEqual({
        id: "ilo-flash",
        state: "completed",
        percentComplete: 100,
      });
      await bmc.server.service.merge(UPDATE_SERVICE, {
        Oem: { Hpe: { State: "Error", Result: { MessageId: "iLO.2.15.UpdateFailed" } } },
      });
      expect(await bmc.driver.jobStatus(job)).toMatchObject({
        state: "failed",
        message: "iLO update failed: iLO.2.15.UpdateFailed",
      });
      await bmc.server.service.merge(UPDATE_SERVICE, { Oem: { Hpe: { State: "Idle" } } });
      expect((await bmc.driver.jobStatus(job)).state).toBe("unknown");
    } finally {
      remove();
    }
  });

  it("follows the task when iLO returns one (iLO 6)", async () => {
    const job = await bmc.driver.updateFirmware({
      method: "simpleUpdate",
      imageUri: "http://192.0.2.1/bios.fwpkg",
    });
    expect(job.kind).toBe("task");
    expect(["running", "completed"]).toContain((await bmc.driver.jobStatus(job)).state);
  });

  it("does not push a raw image to iLO's uploadFile form endpoint", async () => {
    await expect(
      bmc.driver.updateFirmware({ method: "httpPush", filename: "ilo.bin", data: new Uint8Array([1, 2, 3]) }),
    ).rejects.toMatchObject({ code: "not_supported" });
    await expect(
      bmc.driver.updateFirmware({ method: "multipart", filename: "ilo.bin", data: new Uint8Array([1]) }),
    ).rejects.toMatchObject({
      code: "not_supported",
      message: expect.stringMatching(/MultipartHttpPushUri/),
    });
    expect(bmc.takeWrites()).toEqual([]);
  });
});
