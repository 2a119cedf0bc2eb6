import { ConfigError } from "../config/index.js";
import type { ConfigCheckContext, ServiceFeature } from "./feature.js";

/**
 * Runs every feature's config check and throws one `ConfigError` listing each problem once (features that
 * share a section, such as the explorer's and the lifecycle's BMC settings, would report it twice).
 */
export function validateFeatureConfigs(
  features: readonly ServiceFeature[],
  context: ConfigCheckContext,
): void {
  const problems = new Set(features.flatMap((feature) => feature.validateConfig?.(context) ?? []));
  if (problems.size > 0) throw new ConfigError(context.config.file ?? "racksmith.yaml", [...problems]);
}
