import {
  HEALTH_CLASSIFICATIONS,
  HEALTH_PROBE_IDS,
  HEALTH_SOURCES,
  type HealthReport,
} from "@racksmith/core/health";
import type { BomVerdict } from "../lifecycle/index.js";

/** Target of the alert of a host without a SKU. */
export const NO_SKU_TARGET = "unassigned";

/**
 * A BOM verdict as the host's `sku-validation` report: a `SkuValidation` success when the host matches (or may
 * go on without a SKU), else one alert, classified PreventAllocations, naming the SKU and what differs.
 */
export function skuHealthReport(verdict: BomVerdict, now: Date): HealthReport {
  const report = (
    alert: { target: string; message: string } | null,
    target = NO_SKU_TARGET,
  ): HealthReport => ({
    source: HEALTH_SOURCES.skuValidation,
    observedAt: now.toISOString(),
    successes: alert ? [] : [{ id: HEALTH_PROBE_IDS.skuValidation, target }],
    alerts: alert
      ? [
          {
            id: HEALTH_PROBE_IDS.skuValidation,
            target: alert.target,
            message: alert.message,
            classifications: [HEALTH_CLASSIFICATIONS.preventAllocations],
          },
        ]
      : [],
  });
  switch (verdict.kind) {
    case "passed":
      return report(null, verdict.skuId ?? NO_SKU_TARGET);
    case "waitingForSkuAssignment":
      return report({
        target: NO_SKU_TARGET,
        message: "no SKU is assigned to the host and no stored SKU matches it",
      });
    case "skuMissing":
      return report({ target: verdict.skuId, message: `the host's SKU ${verdict.skuId} does not exist` });
    case "skuVerificationFailed":
      return report({
        target: verdict.skuId,
        message: `the host does not match SKU ${verdict.skuId}: ${verdict.mismatches.map((m) => m.message).join("; ")}`,
      });
  }
}
