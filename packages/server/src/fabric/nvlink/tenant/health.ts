import type { HealthReport } from "@racksmith/core/health";
import { HEALTH_CLASSIFICATIONS } from "@racksmith/core/health";

/** Source of the host health reports the NVLink side writes. */
export const NVLINK_HEALTH_SOURCE = "nvlink-partition-monitor";

/**
 * `NvLinkCleanupPending` (PreventAllocations) while GPUs a release left behind are still in tenant partitions;
 * an empty report (no GPUs) clears it.
 */
export function nvlinkCleanupReport(gpuIds: readonly string[], now: Date): HealthReport {
  return {
    source: NVLINK_HEALTH_SOURCE,
    observedAt: now.toISOString(),
    successes: gpuIds.length === 0 ? [{ id: "NvLinkCleanupPending" }] : [],
    alerts:
      gpuIds.length === 0
        ? []
        : [
            {
              id: "NvLinkCleanupPending",
              message: `NMX-M was unreachable at release; GPUs ${gpuIds.join(", ")} are still in tenant partitions`,
              classifications: [HEALTH_CLASSIFICATIONS.preventAllocations],
            },
          ],
  };
}
