export { type GenerateSkuOptions, generateSku } from "./generateSku.js";
export { parseSku } from "./parseSku.js";
export {
  SKU_COMPONENTS,
  SKU_SCHEMA_VERSION,
  type Sku,
  type SkuComponent,
  type SkuCount,
  type SkuCpu,
  type SkuDisk,
  type SkuIbPort,
} from "./sku.js";
export { describeDifference, type SkuDifference, verifySku } from "./verifySku.js";
