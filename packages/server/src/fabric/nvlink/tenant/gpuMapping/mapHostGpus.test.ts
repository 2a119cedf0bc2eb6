import type { NvLinkGpu } from "@racksmith/core/nvlink";
import { describe, expect, it } from "vitest";
import { type HostGpu, mapHostGpus } from "./mapHostGpus.js";

function fabricGpu(id: string, tray: number, deviceIndex: number, chassisSerial = "R1"): NvLinkGpu {
  return {
    id,
    domain: "d1",
    location: { chassisSerial, slot: tray + 1, tray },
    deviceIndex,
    deviceUid: `${id}-uid`,
    partitionNumber: null,
    health: "healthy",
  };
}

const at = (tray: number, chassisSerial = "R1"): HostGpu => ({
  platform: { chassisSerial, slot: tray + 1, tray },
});

const FABRIC = [
  fabricGpu("g-0-2", 0, 2),
  fabricGpu("g-0-1", 0, 1),
  fabricGpu("g-1-1", 1, 1),
  fabricGpu("x-0-1", 0, 1, "R2"),
];

describe("mapHostGpus", () => {
  it.each([
    {
      name: "a tray's GPUs in device-index order",
      host: [at(0), at(0)],
      ids: ["g-0-1", "g-0-2"],
      problems: 0,
    },
    { name: "the chassis serial tells racks apart", host: [at(0, "R2")], ids: ["x-0-1"], problems: 0 },
    { name: "more host GPUs than NMX-M has there", host: [at(1), at(1)], ids: ["g-1-1"], problems: 1 },
    { name: "a GPU without platform info", host: [{ platform: null }, at(1)], ids: ["g-1-1"], problems: 1 },
    { name: "an unknown location", host: [at(7)], ids: [], problems: 1 },
  ])("$name", ({ host, ids, problems }) => {
    const mapping = mapHostGpus(host, FABRIC);
    expect(mapping.gpus.map((m) => m.gpu.id)).toEqual(ids);
    expect(mapping.problems).toHaveLength(problems);
  });

  it("keeps the host's GPU positions as device instances", () => {
    const mapping = mapHostGpus([{ platform: null }, at(0)], FABRIC);
    expect(mapping.gpus).toEqual([{ deviceInstance: 1, gpu: expect.objectContaining({ id: "g-0-1" }) }]);
    expect(mapping.problems[0]).toMatch(/GPU 0 has no platform info/);
  });
});
