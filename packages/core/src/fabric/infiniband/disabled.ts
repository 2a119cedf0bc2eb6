import { InfiniBandFabricDisabledError } from "./errors.js";
import type { InfiniBandFabric, InfiniBandFabricSettings } from "./fabric.js";
import { DEFAULT_INFINIBAND_QOS } from "./qos.js";

/** NICo's defaults; informative only for a disabled fabric (no pool, nothing to monitor). */
export const DEFAULT_INFINIBAND_FABRIC_SETTINGS: Readonly<InfiniBandFabricSettings> = Object.freeze({
  pkeyRanges: [],
  qos: DEFAULT_INFINIBAND_QOS,
  monitorIntervalMs: 60_000,
});

/**
 * The fabric used when no `fabrics.infiniband` section is configured: every call fails with `fabric_disabled`
 * naming the call, so a tenant asking for an InfiniBand partition gets a clear refusal, not a silent no-op.
 */
export function disabledInfiniBandFabric(): InfiniBandFabric {
  const refuse = (operation: string) => (): Promise<never> =>
    Promise.reject(new InfiniBandFabricDisabledError(operation));
  return {
    name: "disabled",
    settings: DEFAULT_INFINIBAND_FABRIC_SETTINGS,
    versions: refuse("versions"),
    subnetManagerConfig: refuse("subnetManagerConfig"),
    listPartitions: refuse("listPartitions"),
    getPartition: refuse("getPartition"),
    bindGuids: refuse("bindGuids"),
    unbindGuids: refuse("unbindGuids"),
    updateQos: refuse("updateQos"),
    listPorts: refuse("listPorts"),
    close: () => Promise.resolve(),
  };
}
