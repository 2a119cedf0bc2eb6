import { describe, expect, it } from "vitest";
import { simulatedGpuPlatform, simulatedHostGpus, simulatedHostIndex } from "./gpus.js";

describe("simulated GB200 GPUs", () => {
  it.each([
    ["host-0001", 0, { chassisSerial: "SIM-NVL-RACK-1", slot: 1, tray: 0, domainIndex: 0 }],
    ["host-0018", 17, { chassisSerial: "SIM-NVL-RACK-1", slot: 18, tray: 17, domainIndex: 0 }],
    ["host-0019", 18, { chassisSerial: "SIM-NVL-RACK-2", slot: 1, tray: 0, domainIndex: 1 }],
  ])("%s is tray %i's position in its rack", (id, index, platform) => {
    expect(simulatedHostIndex(id)).toBe(index);
    expect(simulatedGpuPlatform(index)).toEqual(platform);
  });

  it("reports 4 GPUs per host with the tray's platform info, none for DPUs", () => {
    const gpus = simulatedHostGpus("host-0002", "SN2");
    expect(gpus).toHaveLength(4);
    expect(new Set(gpus.map((g) => g.serial)).size).toBe(4);
    expect(gpus.every((g) => g.platform?.tray === 1 && g.platform.slot === 2)).toBe(true);
    expect(simulatedHostGpus("host-0002-dpu1", "SN")).toEqual([]);
  });
});
