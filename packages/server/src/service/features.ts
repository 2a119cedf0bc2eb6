import { siteExplorerFeature } from "../explorer/index.js";
import { infinibandFeature } from "../fabric/infiniband/feature.js";
import { nvlinkFeature } from "../fabric/nvlink/feature.js";
import { inventoryFeature } from "../inventory/index.js";
import { lifecycleFeature } from "../lifecycle/feature.js";
import { machineValidationFeature } from "../machineValidation/index.js";
import { skuFeature } from "../sku/index.js";
import type { ServiceFeature } from "./feature.js";

/** The features `racksmith serve` runs, in start order. */
export const DEFAULT_FEATURES: readonly ServiceFeature[] = [
  inventoryFeature,
  siteExplorerFeature,
  lifecycleFeature,
  skuFeature,
  machineValidationFeature,
  infinibandFeature,
  nvlinkFeature,
];
