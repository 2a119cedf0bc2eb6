export { SKU_SERVICE, skuGrpcServices, skuRestRoutes } from "./api/index.js";
export {
  DEFAULT_SKU_VALIDATION_CONFIG,
  type ResolvedSkuValidationConfig,
  resolveSkuValidationConfig,
  SKU_VALIDATION_CONFIG_SCHEMA,
  type SkuValidationConfig,
} from "./config.js";
export { skuFeature } from "./feature.js";
export { type HostSkuView, SkuService, type SkuServiceDeps, type SkuView } from "./skuService.js";
