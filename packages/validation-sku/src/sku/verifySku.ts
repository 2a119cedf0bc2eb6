import type { MachineInventory } from "@racksmith/core";
import { InvalidArgumentError } from "@racksmith/core/errors";
import { generateSku } from "./generateSku.js";
import { SKU_SCHEMA_VERSION, type Sku, type SkuComponent } from "./sku.js";

/** One way a host differs from its SKU: a component (by model) the SKU expects a different number of, say. */
export interface SkuDifference {
  component: SkuComponent;
  /** Which one: a model (with its threads, rate or size where those matter), or the field compared. */
  item: string;
  expected: string | number;
  found: string | number;
}

/**
 * How a host's inventory differs from a SKU, by the rules of the SKU's schema version (empty: it matches). A
 * count difference names the model and both counts, so `SkuVerificationFailed` can say "gpu NVIDIA H100 PCIe:
 * expected 8, found 7".
 */
export function verifySku(sku: Sku, inventory: MachineInventory): SkuDifference[] {
  if (sku.schemaVersion < 1 || sku.schemaVersion > SKU_SCHEMA_VERSION) {
    throw new InvalidArgumentError(
      `SKU ${sku.id} has schema version ${sku.schemaVersion}; this version of @racksmith/validation-sku verifies 1 to ${SKU_SCHEMA_VERSION}`,
      { details: { skuId: sku.id, schemaVersion: sku.schemaVersion } },
    );
  }
  const host = generateSku(inventory, { id: sku.id, description: sku.description });
  const differences: SkuDifference[] = [];
  for (const field of ["vendor", "model"] as const) {
    if (sku.chassis[field] !== host.chassis[field]) {
      differences.push({
        component: "chassis",
        item: field,
        expected: sku.chassis[field],
        found: host.chassis[field],
      });
    }
  }
  differences.push(
    ...countDifferences("cpu", sku.cpus, host.cpus, (c) => `${c.model} (${c.threads} threads)`),
  );
  if (sku.memoryBytes !== host.memoryBytes) {
    differences.push({
      component: "memory",
      item: "bytes",
      expected: sku.memoryBytes,
      found: host.memoryBytes,
    });
  }
  differences.push(...countDifferences("gpu", sku.gpus, host.gpus, (g) => g.model));
  differences.push(...countDifferences("nic", sku.nics, host.nics, (n) => n.model));
  differences.push(
    ...countDifferences("ibPort", sku.ibPorts, host.ibPorts, (p) => `${p.device} (${p.rateGbps} Gb/s)`),
  );
  differences.push(
    ...countDifferences("disk", sku.disks, host.disks, (d) => `${d.model} (${d.sizeBytes} bytes)`),
  );
  return differences;
}

/** One line per difference, e.g. `gpu NVIDIA H100 PCIe: expected 8, found 7`. */
export function describeDifference(difference: SkuDifference): string {
  return `${difference.component} ${difference.item}: expected ${difference.expected}, found ${difference.found}`;
}

/** Every item whose count differs between the SKU and the host (absent on one side: 0 there). */
function countDifferences<T extends { count: number }>(
  component: SkuComponent,
  expected: readonly T[],
  found: readonly T[],
  label: (item: T) => string,
): SkuDifference[] {
  const counts = new Map<string, { expected: number; found: number }>();
  for (const item of expected) counts.set(label(item), { expected: item.count, found: 0 });
  for (const item of found) {
    const entry = counts.get(label(item)) ?? { expected: 0, found: 0 };
    entry.found = item.count;
    counts.set(label(item), entry);
  }
  return [...counts]
    .filter(([, c]) => c.expected !== c.found)
    .map(([item, c]) => ({ component, item, expected: c.expected, found: c.found }));
}
