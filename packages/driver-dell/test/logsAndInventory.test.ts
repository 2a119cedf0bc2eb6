import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DellIdracDriver } from "../src/index.js";
import { DellMockup } from "./support/dellMockup.js";
import { R750 } from "./support/mockups.js";

let mockup: DellMockup;
let driver: DellIdracDriver;

beforeAll(async () => {
  mockup = await DellMockup.start(R750);
  driver = await mockup.driver();
});
afterAll(() => mockup.close());

describe("event logs", () => {
  it("read the SEL the iDRAC keeps under its manager, oldest first and incrementally", async () => {
    const entries = await driver.systemEventLog();
    expect(entries.map((e) => [e.id, e.source, e.severity])).toEqual([
      ["1", "Sel", "OK"],
      ["2", "Sel", "Warning"],
      ["3", "Sel", "OK"],
      ["4", "Sel", "Critical"],
    ]);
    expect((await driver.systemEventLog({ sinceId: "2" })).map((e) => e.id)).toEqual(["3", "4"]);
    expect((await driver.bmcEventLog()).map((e) => e.source)).toEqual(["Sel", "Sel", "Sel", "Sel"]);
  });
});

describe("inventory", () => {
  it("lists the RAID drives, the PCIe devices with their state and the DPU adapter (serial trimmed)", async () => {
    expect((await driver.drives()).map((d) => [d.storageId, d.id])).toEqual([
      ["RAID.SL.3-1", "Disk.Bay.0:Enclosure.Internal.0-1"],
      ["RAID.SL.3-1", "Disk.Bay.1:Enclosure.Internal.0-1"],
    ]);
    const devices = await driver.pcieDevices();
    expect(devices).toHaveLength(5);
    expect(devices.every((d) => d.state === "Enabled")).toBe(true);
    expect((await driver.networkAdapters()).find((a) => a.id === "NIC.Slot.5")).toMatchObject({
      serialNumber: "MT2301X00101",
      partNumber: "MBF2H516A-CEEO",
      firmwareVersion: "24.39.20.04",
    });
  });

  it("leaves the BlueField operations to the DPU driver", async () => {
    await expect(driver.nicMode()).rejects.toMatchObject({ code: "not_supported" });
    await expect(driver.baseMac()).rejects.toMatchObject({ code: "not_supported" });
  });
});
