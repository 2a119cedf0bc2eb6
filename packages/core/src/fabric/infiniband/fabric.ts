import type { Logger } from "../../logging/index.js";
import type { IbGuid } from "./guid.js";
import type { Pkey, PkeyRange } from "./pkey.js";
import type { InfiniBandQos } from "./qos.js";
import type {
  InfiniBandBindOptions,
  InfiniBandCallOptions,
  InfiniBandFabricVersions,
  InfiniBandPartition,
  InfiniBandPartitionQuery,
  InfiniBandPort,
  InfiniBandPortFilter,
  InfiniBandSubnetManagerConfig,
} from "./types.js";

/**
 * An InfiniBand fabric manager. The core owns the tenant side (partition objects, the pkey pool, each
 * instance's IB config) and reconciles it against this contract; an adapter only speaks the wire protocol.
 * There is no "create partition": a partition appears when its first GUID is bound and (on UFM) disappears
 * when its last one is unbound. Every failure is an `InfiniBandFabricError` with a stable code.
 */
export interface InfiniBandFabric {
  /** The registered definition's name (`ufm`, `disabled`). */
  readonly name: string;
  /** The operator's pool, QoS and monitor settings from the fabric's config section, defaults applied. */
  readonly settings: InfiniBandFabricSettings;

  versions(options?: InfiniBandCallOptions): Promise<InfiniBandFabricVersions>;
  subnetManagerConfig(options?: InfiniBandCallOptions): Promise<InfiniBandSubnetManagerConfig>;
  /** Every partition, the default `0x7fff` included, with GUIDs and/or QoS when asked. */
  listPartitions(query?: InfiniBandPartitionQuery): Promise<InfiniBandPartition[]>;
  /** Throws `fabric_not_found` when the fabric has no such partition (nothing bound to it). */
  getPartition(pkey: Pkey, query?: InfiniBandPartitionQuery): Promise<InfiniBandPartition>;
  /** Adds GUIDs to a partition, creating it on its first GUID. Binding a bound GUID is a no-op. */
  bindGuids(pkey: Pkey, guids: readonly IbGuid[], options?: InfiniBandBindOptions): Promise<void>;
  /** Removes GUIDs from a partition. Removing an absent GUID is a no-op. */
  unbindGuids(pkey: Pkey, guids: readonly IbGuid[], options?: InfiniBandCallOptions): Promise<void>;
  /** Throws `fabric_not_found` for an unknown partition; `invalid_argument` for values the fabric refuses. */
  updateQos(pkey: Pkey, qos: InfiniBandQos, options?: InfiniBandCallOptions): Promise<void>;
  /** Host-facing ports with their states. */
  listPorts(filter?: InfiniBandPortFilter): Promise<InfiniBandPort[]>;

  /** Releases connections; the fabric is not used afterwards. */
  close(): Promise<void>;
}

/** What the core's pool, partition controller and monitor take from the fabric's config section. */
export interface InfiniBandFabricSettings {
  /** Pkeys the core allocates and may unbind from (end exclusive); pkeys outside are never touched. */
  pkeyRanges: readonly PkeyRange[];
  /** QoS every tenant partition gets (and is corrected back to). */
  qos: Readonly<InfiniBandQos>;
  /** How often the monitor reconciles (NICo: 60 s). */
  monitorIntervalMs: number;
}

export interface InfiniBandFabricContext {
  logger: Logger;
  /** Folder relative paths in the config (token, password, certificate files) are resolved against. */
  baseDir?: string;
}

/**
 * What a plugin registers with `registry.infinibandFabric(...)`. The operator's `fabrics.infiniband` section
 * is checked against `configSchema` when the config is loaded, then handed to `create`.
 */
export interface InfiniBandFabricDefinition {
  /** Short, unique, kebab-case (`ufm`); `disabled` is the core's own. */
  name: string;
  description?: string;
  /** JSON Schema of the config section (`fabrics.infiniband`). */
  configSchema?: Readonly<Record<string, unknown>>;
  /** Checks the config (errors name the key), reads credential files and returns a ready fabric. */
  create(
    config: Readonly<Record<string, unknown>>,
    context: InfiniBandFabricContext,
  ): InfiniBandFabric | Promise<InfiniBandFabric>;
}
