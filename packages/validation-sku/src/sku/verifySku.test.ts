import type { MachineInventory } from "@racksmith/core";
import { describe, expect, it } from "vitest";
import { gpuHost } from "./__fixtures__/inventory.js";
import { generateSku } from "./generateSku.js";
import { describeDifference, verifySku } from "./verifySku.js";

const sku = generateSku(gpuHost(), { id: "dell.xe9680.gpu.1" });

describe("verifySku", () => {
  it("finds nothing on a host of the SKU's build, whatever its serials and order", () => {
    const twin = gpuHost((i) => {
      i.serial = "SN-2";
      i.gpus.reverse();
      for (const gpu of i.gpus) gpu.serial = `X${gpu.serial}`;
    });
    expect(verifySku(sku, twin)).toEqual([]);
  });

  it.each<[string, (inventory: MachineInventory) => void, string[]]>([
    ["a missing GPU", (i) => void i.gpus.pop(), ["gpu NVIDIA H100 80GB HBM3: expected 8, found 7"]],
    [
      "a GPU of another model",
      (i) => {
        const gpu = i.gpus[0];
        if (gpu) gpu.model = "NVIDIA A100";
      },
      ["gpu NVIDIA H100 80GB HBM3: expected 8, found 7", "gpu NVIDIA A100: expected 0, found 1"],
    ],
    [
      "another chassis",
      (i) => {
        i.vendor = "Lenovo";
        i.model = "ThinkSystem SR670 V2";
      },
      [
        "chassis vendor: expected Dell Inc., found Lenovo",
        "chassis model: expected PowerEdge XE9680, found ThinkSystem SR670 V2",
      ],
    ],
    [
      "less memory",
      (i) => {
        i.memoryBytes -= 2 ** 30;
      },
      [`memory bytes: expected ${2048 * 2 ** 30}, found ${2047 * 2 ** 30}`],
    ],
    [
      "CPUs with other thread counts",
      (i) => {
        for (const cpu of i.cpus) cpu.threads = 56;
      },
      [
        "cpu Intel(R) Xeon(R) Platinum 8480+ (112 threads): expected 2, found 0",
        "cpu Intel(R) Xeon(R) Platinum 8480+ (56 threads): expected 0, found 2",
      ],
    ],
    [
      "a slower IB port",
      (i) => {
        const port = i.ibPorts[1];
        if (port) port.rateGbps = 200;
      },
      [
        "ibPort MT2910 Family [ConnectX-7] (400 Gb/s): expected 2, found 1",
        "ibPort MT2910 Family [ConnectX-7] (200 Gb/s): expected 0, found 1",
      ],
    ],
    [
      "a missing disk and DPU",
      (i) => {
        i.disks.pop();
        i.nics.pop();
      },
      [
        "nic BlueField-3: expected 2, found 1",
        "disk Dell NVMe 3.84TB (3840000000000 bytes): expected 2, found 1",
      ],
    ],
  ])("names %s", (_, change, lines) => {
    expect(verifySku(sku, gpuHost(change)).map(describeDifference)).toEqual(lines);
  });

  it("refuses a SKU of a schema version it does not know, naming it", () => {
    expect(() => verifySku({ ...sku, schemaVersion: 99 }, gpuHost())).toThrow(
      expect.objectContaining({
        code: "invalid_argument",
        message: expect.stringContaining("schema version 99"),
      }),
    );
  });
});
