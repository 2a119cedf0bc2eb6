import { hostHealthRecorder } from "../health/service/index.js";
import { BOM_VALIDATION } from "../lifecycle/index.js";
import type { ConfigCheckContext, ServiceFeature } from "../service/feature.js";
import { skuGrpcServices, skuRestRoutes } from "./api/index.js";
import { createBomValidation } from "./bomEvaluation.js";
import { resolveSkuValidationConfig, skuValidationConfigProblems } from "./config.js";
import { SkuService } from "./skuService.js";
import { SkuStore } from "./store.js";

/**
 * SKU (BOM) validation (issue 21): the SKU API always (it answers `sku_rules_not_loaded` without a plugin
 * registering SKU rules), and, with rules loaded and `skuValidation.enabled`, the lifecycle's BOM validation.
 */
export const skuFeature: ServiceFeature = {
  name: "sku",
  validateConfig: ({ config }: ConfigCheckContext) =>
    skuValidationConfigProblems(config.config.skuValidation),
  async setup(context) {
    const config = resolveSkuValidationConfig(context.config.config.skuValidation);
    const rules = context.host.skuRules()[0]?.definition;
    const { database, engine, logger } = context;
    const service = new SkuService({ database, engine, logger, rules });
    if (rules && config.enabled) {
      context.extensions.add(
        BOM_VALIDATION,
        createBomValidation({
          store: new SkuStore(database.db),
          rules,
          config,
          recordReport: hostHealthRecorder(context),
          clock: () => new Date(),
          logger,
        }),
      );
    }
    return { rest: skuRestRoutes(service), grpc: skuGrpcServices(service, logger) };
  },
};
