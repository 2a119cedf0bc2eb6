import { createExtensionPoint } from "../../service/extensions.js";
import type { InstanceConfig } from "../tables.js";

/** An instance as a fabric sees it: which host, which config (version). */
export interface InstanceFabricTarget {
  hostId: string;
  instanceId: string;
  tenantOrg: string;
  config: InstanceConfig;
  configVersion: number;
}

/**
 * A tenant-isolation fabric beside the DPU network (InfiniBand, NVLink): instances configure it in their
 * config section of the same name, the lifecycle waits for it (Assigned until synced, release until the
 * host's ports are out of tenant partitions), instance status shows it under `configsSynced`.
 * Fabric features add theirs to `INSTANCE_FABRICS`; the lifecycle reads them when it runs.
 */
export interface InstanceFabric {
  /** The config section and `configsSynced` key: `infiniband` or `nvlink`. */
  readonly name: "infiniband" | "nvlink";
  /**
   * Checks the instance's section against the host it is on (the host's ports or GPUs, the partitions
   * exist, are Ready and belong to the tenant); throws an `InvalidArgumentError` naming the field.
   */
  checkConfig(target: InstanceFabricTarget, field: string): Promise<void>;
  /** Why the fabric does not match the instance's section yet; empty when synced. */
  syncProblems(target: InstanceFabricTarget): Promise<string[]>;
  /**
   * On release, before cleanup: what of the host is still in tenant partitions; empty when the host may be
   * cleaned. A fabric that cannot be reached leaves a PreventAllocations alert on the host and returns
   * empty, so termination goes on (the alert clears once the fabric is cleaned).
   */
  releaseProblems(host: { hostId: string; instanceId: string }): Promise<string[]>;
  /** Force deletion: takes the host's ports or GPUs out of every tenant partition (best effort). */
  detachHost(host: { hostId: string; dpuIds: string[] }, signal: AbortSignal): Promise<void>;
}

export const INSTANCE_FABRICS = createExtensionPoint<InstanceFabric>("racksmith.lifecycle.instanceFabrics");
