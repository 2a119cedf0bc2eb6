import type { MachineInventory } from "@racksmith/core";

const GiB = 2 ** 30;

/** A two-socket GPU host as its host agent reports it: 8 GPUs, two DPUs, two IB ports, two NVMe disks. */
export function gpuHost(change: (inventory: MachineInventory) => void = () => {}): MachineInventory {
  const inventory: MachineInventory = {
    serial: "SN-1",
    vendor: "Dell Inc.",
    model: "PowerEdge XE9680",
    cpus: [0, 1].map(() => ({ model: "Intel(R) Xeon(R) Platinum 8480+", cores: 56, threads: 112 })),
    memoryBytes: 2048 * GiB,
    disks: [0, 1].map((i) => ({
      name: `nvme${i}n1`,
      model: "Dell NVMe 3.84TB",
      serial: `D${i}`,
      sizeBytes: 3_840_000_000_000,
    })),
    nics: [0, 1].map((i) => ({
      name: `eth${i}`,
      mac: `B8:3F:D2:00:00:0${i}`,
      model: "BlueField-3",
      pciAddress: `0000:${i}`,
    })),
    gpus: Array.from({ length: 8 }, (_, i) => ({
      model: "NVIDIA H100 80GB HBM3",
      serial: `G${i}`,
      pciAddress: `0000:1${i}`,
      platform: null,
    })),
    ibPorts: [0, 1].map((port) => ({
      device: "MT2910 Family [ConnectX-7]",
      port,
      guid: `0x${port}`,
      rateGbps: 400,
    })),
  };
  change(inventory);
  return inventory;
}
