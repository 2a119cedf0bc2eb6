import { NvLinkFabricDisabledError } from "./errors.js";
import type { NvLinkFabric, NvLinkMonitorSettings } from "./fabric.js";

/** NICo's defaults; only informative here, since a disabled fabric has nothing to monitor. */
export const DEFAULT_NVLINK_MONITOR_SETTINGS: Readonly<NvLinkMonitorSettings> = Object.freeze({
  monitorIntervalMs: 60_000,
  operationTimeoutMs: 10_000,
  operationPollMs: 500,
});

/**
 * The fabric used when no `fabrics.nvlink` section is configured: every call fails with `fabric_disabled`
 * naming the call, so a tenant asking for NVLink partitioning gets a clear refusal instead of a silent no-op.
 */
export function disabledNvLinkFabric(): NvLinkFabric {
  const refuse = (operation: string) => (): Promise<never> =>
    Promise.reject(new NvLinkFabricDisabledError(operation));
  return {
    name: "disabled",
    monitor: DEFAULT_NVLINK_MONITOR_SETTINGS,
    listGpus: refuse("listGpus"),
    getGpu: refuse("getGpu"),
    listComputeNodes: refuse("listComputeNodes"),
    listPartitions: refuse("listPartitions"),
    getPartition: refuse("getPartition"),
    createPartition: refuse("createPartition"),
    updatePartition: refuse("updatePartition"),
    deletePartition: refuse("deletePartition"),
    getOperation: refuse("getOperation"),
    cancelOperation: refuse("cancelOperation"),
    waitForOperation: refuse("waitForOperation"),
    close: () => Promise.resolve(),
  };
}
