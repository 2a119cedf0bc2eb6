import type { HealthReport } from "@racksmith/core/health";
import { createExtensionPoint } from "../../service/extensions.js";
import type { FeatureContext } from "../../service/feature.js";
import { HealthService } from "./healthService.js";

/** The running service's one HealthService (the lifecycle feature adds it). */
export const HOST_HEALTH = createExtensionPoint<HealthService>("racksmith.health.service");

/**
 * Records a host's health report through the service's HealthService, so the aggregate and the health metrics
 * on /metrics refresh at once; a feature running without the lifecycle gets one of its own.
 */
export function hostHealthRecorder(
  context: FeatureContext,
): (hostId: string, report: HealthReport) => Promise<void> {
  let own: HealthService | undefined;
  const ownHealth = (): HealthService => {
    own ??= new HealthService({
      database: context.database,
      engine: context.engine,
      logger: context.logger,
      config: context.config.config.health,
    });
    return own;
  };
  return (hostId, report) =>
    (context.extensions.list(HOST_HEALTH)[0] ?? ownHealth()).recordReport(hostId, report);
}
