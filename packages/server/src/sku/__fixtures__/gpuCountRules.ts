import type { MachineInventory, SkuDocument, SkuRules } from "@racksmith/core";
import { InvalidArgumentError } from "@racksmith/core";

type GpuSku = SkuDocument & { model: string; gpus: number };

/** SKU rules small enough to reason about: a SKU is a host model and its GPU count. */
export const gpuCountRules: SkuRules = {
  name: "gpu-count",
  parse(value) {
    const v = (value ?? {}) as Record<string, unknown>;
    if (typeof v.id !== "string" || v.id === "")
      throw new InvalidArgumentError("id must be a non-empty string");
    if (typeof v.model !== "string") throw new InvalidArgumentError("model must be a string");
    if (!Number.isInteger(v.gpus)) throw new InvalidArgumentError("gpus must be a whole number");
    if (v.schemaVersion !== undefined && v.schemaVersion !== 1) {
      throw new InvalidArgumentError(`schemaVersion ${String(v.schemaVersion)} is not known`);
    }
    const sku: GpuSku = {
      id: v.id,
      schemaVersion: 1,
      description: typeof v.description === "string" ? v.description : "",
      model: v.model,
      gpus: v.gpus as number,
    };
    return sku;
  },
  generate(inventory, request) {
    const sku: GpuSku = {
      id: request?.id ?? `${inventory.model}.gpu.1`,
      schemaVersion: 1,
      description: request?.description ?? "",
      model: inventory.model,
      gpus: inventory.gpus.length,
    };
    return sku;
  },
  verify(document, inventory) {
    const sku = gpuCountRules.parse(document) as GpuSku;
    return [
      ...(sku.model === inventory.model
        ? []
        : [
            {
              component: "chassis",
              message: `chassis model: expected ${sku.model}, found ${inventory.model}`,
            },
          ]),
      ...(sku.gpus === inventory.gpus.length
        ? []
        : [{ component: "gpu", message: `gpu: expected ${sku.gpus}, found ${inventory.gpus.length}` }]),
    ];
  },
};

/** A host agent's inventory of a host of `model` with `gpus` GPUs. */
export function inventoryOf(model: string, gpus: number): MachineInventory {
  return {
    serial: `S-${model}`,
    vendor: "Acme",
    model,
    cpus: [],
    memoryBytes: 0,
    disks: [],
    nics: [],
    gpus: Array.from({ length: gpus }, (_, i) => ({
      model: "GPU",
      serial: `G${i}`,
      pciAddress: "",
      platform: null,
    })),
    ibPorts: [],
  };
}
