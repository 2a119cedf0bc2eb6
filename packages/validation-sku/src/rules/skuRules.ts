import type { SkuRules } from "@racksmith/core";
import { describeDifference, generateSku, parseSku, verifySku } from "../sku/index.js";

/**
 * The package's rules as the service calls them. A stored SKU is parsed again before it is compared, so a
 * document edited in the database is checked like one from a file.
 */
export const skuRules: SkuRules = {
  name: "sku",
  description:
    "hardware bill of materials: chassis, CPUs, memory, GPUs, NICs and DPUs, InfiniBand ports, disks",
  parse: (value) => parseSku(value),
  generate: (inventory, request) => generateSku(inventory, request),
  verify: (sku, inventory) =>
    verifySku(parseSku(sku), inventory).map((difference) => ({
      component: difference.component,
      message: describeDifference(difference),
    })),
};
