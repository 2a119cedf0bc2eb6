import { isJsonObject, type JsonObject, type JsonValue } from "@racksmith/testkit";
import { canonicalMac, displayMac, type VirtualBmc } from "../fleet/index.js";
import { simulatedHostGpus } from "./gpus.js";
import { simulatedIbPorts } from "./ibPorts.js";
import type { Cpu, MachineInventory, Nic } from "./messages.js";

const GIB = 1024 ** 3;

/**
 * What the host agent (the discovery image) finds in the machine, taken from what the host's BMC serves (so
 * serials and MACs are the fleet's rewritten ones): the first system's serial, CPUs and memory, its ethernet
 * interfaces, and the host-facing ports of its DPUs (`plan.dpuMacs`), which the service pairs the host by.
 */
export async function hostInventory(bmc: VirtualBmc): Promise<MachineInventory> {
  const system = await firstSystem(bmc);
  const nics = await ethernetNics(bmc, system);
  const known = new Set(nics.map((nic) => canonicalMac(nic.mac)));
  bmc.plan.dpuMacs.forEach((mac, index) => {
    const canonical = canonicalMac(mac);
    if (canonical && !known.has(canonical)) {
      known.add(canonical);
      nics.push({ name: `dpu${index}_pf0`, mac: displayMac(canonical), model: "BlueField", pciAddress: "" });
    }
  });
  const serial = text(system?.SerialNumber) || bmc.serial;
  return {
    serial,
    vendor: text(system?.Manufacturer) || bmc.vendor,
    model: text(system?.Model) || bmc.model,
    cpus: cpus(system?.ProcessorSummary),
    memoryBytes: String(Math.round(number(field(system?.MemorySummary, "TotalSystemMemoryGiB"), 256) * GIB)),
    // Storage is not read: a synthetic boot disk is enough for discovery and costs no extra reads.
    disks: [
      { name: "nvme0n1", model: "Simulated NVMe", serial: `${serial}-D0`, sizeBytes: String(960 * 10 ** 9) },
    ],
    nics,
    gpus: simulatedHostGpus(bmc.id, serial),
    ibPorts: simulatedIbPorts(bmc.id),
  };
}

/**
 * The DPU agent's inventory: the serial its BMC's system shows (the card serial the host lists and the site
 * explorer stores for the DPU). No NICs: the DPU's pf0 MAC is one of its host's, and the service identifies
 * hosts by it.
 */
export async function dpuInventory(bmc: VirtualBmc): Promise<MachineInventory> {
  const system = await firstSystem(bmc);
  return {
    serial: text(system?.SerialNumber) || bmc.serial,
    vendor: text(system?.Manufacturer) || "NVIDIA",
    model: text(system?.Model) || bmc.model,
    cpus: [{ model: "ARM Cortex-A78AE", cores: 16, threads: 16 }],
    memoryBytes: String(32 * GIB),
    disks: [],
    nics: [],
    gpus: [],
    ibPorts: [],
  };
}

async function firstSystem(bmc: VirtualBmc): Promise<JsonObject | undefined> {
  const path = members(await bmc.read("/redfish/v1/Systems"))[0];
  return path ? bmc.read(path) : undefined;
}

async function ethernetNics(bmc: VirtualBmc, system: JsonObject | undefined): Promise<Nic[]> {
  const collection = link(system?.EthernetInterfaces);
  if (!collection) return [];
  const nics: Nic[] = [];
  for (const path of members(await bmc.read(collection))) {
    const nic = await bmc.read(path);
    const mac = canonicalMac(text(nic?.MACAddress) || text(nic?.PermanentMACAddress));
    if (mac) nics.push({ name: text(nic?.Id) || path, mac: displayMac(mac), model: "", pciAddress: "" });
  }
  return nics;
}

function cpus(summary: JsonValue | undefined): Cpu[] {
  const count = number(field(summary, "Count"), 2);
  const cores = number(field(summary, "CoreCount"), 32);
  const threads = number(field(summary, "LogicalProcessorCount"), cores * 2);
  const model = text(field(summary, "Model")) || "Simulated CPU";
  // The summary counts all sockets; report one entry per socket.
  return Array.from({ length: Math.max(1, count) }, () => ({
    model,
    cores: Math.max(1, Math.round(cores / Math.max(1, count))),
    threads: Math.max(1, Math.round(threads / Math.max(1, count))),
  }));
}

function members(collection: JsonObject | undefined): string[] {
  const list = collection?.Members;
  return Array.isArray(list) ? list.map(link).filter((path): path is string => !!path) : [];
}

function link(value: JsonValue | undefined): string | undefined {
  return isJsonObject(value) && typeof value["@odata.id"] === "string" ? value["@odata.id"] : undefined;
}

function field(value: JsonValue | undefined, key: string): JsonValue | undefined {
  return isJsonObject(value) ? value[key] : undefined;
}

function text(value: JsonValue | undefined): string {
  return typeof value === "string" ? value.trim() : "";
}

function number(value: JsonValue | undefined, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : fallback;
}
