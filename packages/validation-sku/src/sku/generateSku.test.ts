import type { MachineInventory } from "@racksmith/core";
import { describe, expect, it } from "vitest";
import { gpuHost } from "./__fixtures__/inventory.js";
import { generateSku } from "./generateSku.js";
import { parseSku } from "./parseSku.js";
import { SKU_SCHEMA_VERSION } from "./sku.js";
import { verifySku } from "./verifySku.js";

describe("generateSku", () => {
  it("groups and counts a host's components by model, leaving serials, MACs and addresses out", () => {
    expect(generateSku(gpuHost())).toEqual({
      id: "dell.xe9680.gpu.1",
      schemaVersion: SKU_SCHEMA_VERSION,
      description: "PowerEdge XE9680; 2xCPU; 8xGPU; 2048 GiB",
      chassis: { vendor: "Dell Inc.", model: "PowerEdge XE9680" },
      cpus: [{ model: "Intel(R) Xeon(R) Platinum 8480+", threads: 112, count: 2 }],
      memoryBytes: 2048 * 2 ** 30,
      gpus: [{ model: "NVIDIA H100 80GB HBM3", count: 8 }],
      nics: [{ model: "BlueField-3", count: 2 }],
      ibPorts: [{ device: "MT2910 Family [ConnectX-7]", rateGbps: 400, count: 2 }],
      disks: [{ model: "Dell NVMe 3.84TB", sizeBytes: 3_840_000_000_000, count: 2 }],
    });
  });

  it.each<[string, (inventory: MachineInventory) => void, string]>([
    [
      "a CPU-only host",
      (i) => {
        i.gpus = [];
      },
      "dell.xe9680.cpu.1",
    ],
    [
      "a vendor with odd characters",
      (i) => {
        i.vendor = "Lenovo/IBM";
      },
      "lenovoibm.xe9680.gpu.1",
    ],
    [
      "an empty model",
      (i) => {
        i.model = "";
      },
      "dell.unknown.gpu.1",
    ],
  ])("names %s by NICo's convention", (_, change, id) => {
    expect(generateSku(gpuHost(change)).id).toBe(id);
  });

  it("takes the caller's id and description, and gives equal SKUs for hosts listing parts in another order", () => {
    const reordered = gpuHost((i) => {
      i.disks.reverse();
      i.cpus.reverse();
      i.nics.push({ name: "eth9", mac: "00", model: "ConnectX-7", pciAddress: "0000:99" });
    });
    const sku = generateSku(reordered, { id: "site.gpu.1", description: "the GPU build" });
    expect(sku).toMatchObject({ id: "site.gpu.1", description: "the GPU build" });
    expect(sku.nics).toEqual([
      { model: "BlueField-3", count: 2 },
      { model: "ConnectX-7", count: 1 },
    ]);
    expect(generateSku(gpuHost()).disks).toEqual(sku.disks);
  });

  it("names what the agent left blank `unknown` and cuts long names, so its SKU can always be created", () => {
    const odd = gpuHost((i) => {
      i.vendor = " ";
      i.model = "M".repeat(300);
      for (const nic of i.nics) nic.model = "";
      const disk = i.disks[0];
      if (disk) disk.model = "";
    });
    const sku = generateSku(odd);
    expect(sku.chassis).toEqual({ vendor: "unknown", model: "M".repeat(256) });
    expect(sku.nics).toEqual([{ model: "unknown", count: 2 }]);
    expect(parseSku(JSON.parse(JSON.stringify(sku)))).toEqual(sku);
    expect(verifySku(sku, odd)).toEqual([]);
  });
});
