import type { MachineInventory } from "@racksmith/core";
import { SKU_SCHEMA_VERSION, type Sku, type SkuCount } from "./sku.js";

/** What a SKU generated from a host is called and says, when the caller names it. */
export interface GenerateSkuOptions {
  id?: string;
  description?: string;
}

/**
 * The SKU a host's inventory describes (NICo's `sku generate`): components grouped by model and counted, in a
 * stable order, so two hosts of one build give equal SKUs. Serials, MACs and PCI addresses are left out.
 */
export function generateSku(inventory: MachineInventory, options: GenerateSkuOptions = {}): Sku {
  const cpus = countBy(
    inventory.cpus,
    (cpu) => `${name(cpu.model)}\u0000${cpu.threads}`,
    (cpu) => ({ model: name(cpu.model), threads: cpu.threads }),
  );
  const gpus = countBy(
    inventory.gpus,
    (gpu) => name(gpu.model),
    (gpu) => ({ model: name(gpu.model) }),
  );
  const nics = countBy(
    inventory.nics,
    (nic) => name(nic.model),
    (nic) => ({ model: name(nic.model) }),
  );
  const ibPorts = countBy(
    inventory.ibPorts,
    (port) => `${name(port.device)}\u0000${port.rateGbps}`,
    (port) => ({ device: name(port.device), rateGbps: port.rateGbps }),
  );
  const disks = countBy(
    inventory.disks,
    (disk) => `${name(disk.model)}\u0000${disk.sizeBytes}`,
    (disk) => ({ model: name(disk.model), sizeBytes: disk.sizeBytes }),
  );
  const chassis = { vendor: name(inventory.vendor), model: name(inventory.model) };
  return {
    id: options.id ?? defaultSkuId(chassis, gpus),
    schemaVersion: SKU_SCHEMA_VERSION,
    description: options.description ?? describeHardware(inventory, gpus),
    chassis,
    cpus,
    memoryBytes: inventory.memoryBytes,
    gpus,
    nics,
    ibPorts,
    disks,
  };
}

/** The longest name a SKU keeps (what `parseSku` accepts). */
const MAX_NAME = 256;

/**
 * A model or vendor as a SKU names it: `unknown` when the agent reported none (a NIC without a model, say),
 * cut to 256 characters; what `parseSku` accepts, so a generated SKU can always be created.
 */
function name(reported: string): string {
  return reported.trim() === "" ? "unknown" : reported.slice(0, MAX_NAME);
}

/** Groups items by key, counts each group, and orders the groups by key. */
function countBy<T, R extends object>(
  items: readonly T[],
  key: (item: T) => string,
  shape: (item: T) => R,
): Array<R & { count: number }> {
  const groups = new Map<string, R & { count: number }>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.count += 1;
    else groups.set(k, { ...shape(item), count: 1 });
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, group]) => group);
}

/** NICo's naming convention: `<first word of the vendor>.<last word of the model>.<gpu|cpu>.1`, lower case. */
function defaultSkuId(chassis: { vendor: string; model: string }, gpus: readonly SkuCount[]): string {
  const first = (text: string) => text.trim().split(/\s+/)[0] ?? "";
  const last = (text: string) => text.trim().split(/\s+/).at(-1) ?? "";
  const part = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "")
      .slice(0, 64) || "unknown";
  return [part(first(chassis.vendor)), part(last(chassis.model)), gpus.length > 0 ? "gpu" : "cpu", "1"].join(
    ".",
  );
}

function describeHardware(inventory: MachineInventory, gpus: readonly SkuCount[]): string {
  const gib = Math.round(inventory.memoryBytes / 2 ** 30);
  const gpuCount = gpus.reduce((sum, gpu) => sum + gpu.count, 0);
  return `${name(inventory.model)}; ${inventory.cpus.length}xCPU; ${gpuCount}xGPU; ${gib} GiB`.slice(
    0,
    MAX_NAME,
  );
}
