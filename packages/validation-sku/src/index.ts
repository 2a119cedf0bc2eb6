import { readFileSync } from "node:fs";
import { definePlugin } from "@racksmith/core";
import { skuRules } from "./rules/index.js";

// Read at runtime so the manifest's version is the package's, from src (tests) and dist alike.
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

/** The plugin a config lists (`plugins: [@racksmith/validation-sku]`): it registers the SKU rules. */
export default definePlugin({
  name: "@racksmith/validation-sku",
  version,
  apiVersion: 1,
  description: "SKU (bill of materials) validation",
  register(registry) {
    registry.skuRules(skuRules);
  },
});

export { skuRules } from "./rules/index.js";
export {
  describeDifference,
  type GenerateSkuOptions,
  generateSku,
  parseSku,
  SKU_COMPONENTS,
  SKU_SCHEMA_VERSION,
  type Sku,
  type SkuComponent,
  type SkuCount,
  type SkuCpu,
  type SkuDifference,
  type SkuDisk,
  type SkuIbPort,
  verifySku,
} from "./sku/index.js";
