import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DellMockup } from "./support/dellMockup.js";
import { R750 } from "./support/mockups.js";

const mockup = useDriverMockup({ beforeAll, afterAll, beforeEach }, new DellMockup(R750));

describe("event logs", () => {
  it("read the SEL the iDRAC keeps under its manager, oldest first and incrementally", async () => {
    const entries = await mockup.driver.systemEventLog();
    expect(entries.map((e) => [e.id, e.source, e.severity])).toEqual([
      ["1", "Sel", "OK"],
      ["2", "Sel", "Warning"],
      ["3", "Sel", "OK"],
      ["4", "Sel", "Critical"],
    ]);
    expect((await mockup.driver.systemEventLog({ sinceId: "2" })).map((e) => e.id)).toEqual(["3", "4"]);
    expect((await mockup.driver.bmcEventLog()).map((e) => e.source)).toEqual(["Sel", "Sel", "Sel", "Sel"]);
  });
});

describe("inventory", () => {
  it("lists the RAID drives, the PCIe devices with their state and the DPU adapter (serial trimmed)", async () => {
    expect((await mockup.driver.drives()).map((d) => [d.storageId, d.id])).toEqual([
      ["RAID.SL.3-1", "Disk.Bay.0:Enclosure.Internal.0-1"],
      ["RAID.SL.3-1", "Disk.Bay.1:Enclosure.Internal.0-1"],
    ]);
    const devices = await mockup.driver.pcieDevices();
    expect(devices).toHaveLength(5);
    expect(devices.every((d) => d.state === "Enabled")).toBe(true);
    expect((await mockup.driver.networkAdapters()).find((a) => a.id === "NIC.Slot.5")).toMatchObject({
      serialNumber: "MT2301X00101",
      partNumber: "MBF2H516A-CEEO",
      firmwareVersion: "24.39.20.04",
    });
  });

  it("leaves the BlueField operations to the DPU driver", async () => {
    await expect(mockup.driver.nicMode()).rejects.toMatchObject({ code: "not_supported" });
    await expect(mockup.driver.baseMac()).rejects.toMatchObject({ code: "not_supported" });
  });
});
