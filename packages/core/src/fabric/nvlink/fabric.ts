import type { Logger } from "../../logging/index.js";
import type {
  NvLinkCallOptions,
  NvLinkComputeNode,
  NvLinkCreatePartitionRequest,
  NvLinkGpu,
  NvLinkListOptions,
  NvLinkOperation,
  NvLinkOperationRef,
  NvLinkPartition,
  NvLinkUpdatePartitionRequest,
  NvLinkWaitOptions,
} from "./types.js";

/**
 * An NVLink fabric manager (NMX-M): inventory of GPUs and compute nodes, and physical partitions changed
 * through asynchronous operations. The core owns the tenant side (logical partitions, their physical
 * partition per domain, the GPU ↔ machine mapping, the instance NVLink config) and reconciles it against
 * this contract; an adapter only translates. Every failure is an `NvLinkFabricError` with a stable code.
 */
export interface NvLinkFabric {
  /** The registered definition's name (`nmxm`). */
  readonly name: string;
  /** Monitor timings from the fabric's config section, with defaults applied. */
  readonly monitor: NvLinkMonitorSettings;

  listGpus(options?: NvLinkListOptions): Promise<NvLinkGpu[]>;
  /** Throws `fabric_not_found` for an unknown id. */
  getGpu(id: string, options?: NvLinkCallOptions): Promise<NvLinkGpu>;
  listComputeNodes(options?: NvLinkListOptions): Promise<NvLinkComputeNode[]>;
  /** Every partition, the default one (number 32766) included. */
  listPartitions(options?: NvLinkListOptions): Promise<NvLinkPartition[]>;
  /** Throws `fabric_not_found` for an unknown id. */
  getPartition(id: string, options?: NvLinkCallOptions): Promise<NvLinkPartition>;

  /** Starts creating a partition; the result (or its failure) is the operation's. */
  createPartition(
    request: NvLinkCreatePartitionRequest,
    options?: NvLinkCallOptions,
  ): Promise<NvLinkOperationRef>;
  /** Starts replacing a partition's member list. */
  updatePartition(
    id: string,
    request: NvLinkUpdatePartitionRequest,
    options?: NvLinkCallOptions,
  ): Promise<NvLinkOperationRef>;
  /** Starts deleting a partition; its GPUs end up in no partition. */
  deletePartition(id: string, options?: NvLinkCallOptions): Promise<NvLinkOperationRef>;

  /** Throws `fabric_not_found` for an unknown (or expired) operation. */
  getOperation(id: string, options?: NvLinkCallOptions): Promise<NvLinkOperation>;
  /** Asks the fabric to cancel a pending or running operation; a finished one stays as it was. */
  cancelOperation(id: string, options?: NvLinkCallOptions): Promise<NvLinkOperationRef>;
  /**
   * Polls an operation until it is final or the timeout passes, and returns the last state seen: a caller
   * counts a non-final status as timed out (the operation may still finish later).
   */
  waitForOperation(id: string, options?: NvLinkWaitOptions): Promise<NvLinkOperation>;

  /**
   * Read-only raw view of the fabric manager's JSON at `path` (relative, e.g. `nmx/v1/gpus`), for operators'
   * troubleshooting (`racksmith nmxm browse`). Optional: a fabric without it cannot be browsed.
   */
  browse?(path: string, options?: NvLinkCallOptions): Promise<unknown>;

  /** Releases connections; the fabric is not used afterwards. */
  close(): Promise<void>;
}

/** Timings the core's NVLink monitor takes from the fabric's config section. */
export interface NvLinkMonitorSettings {
  /** How often the monitor reconciles (NICo: 60 s). */
  monitorIntervalMs: number;
  /** How long one operation is polled before it counts as timed out (NICo: 10 s). */
  operationTimeoutMs: number;
  /** How often an operation is polled (NICo: 500 ms). */
  operationPollMs: number;
}

export interface NvLinkFabricContext {
  logger: Logger;
  /** Folder relative paths in the config (password, CA files) are resolved against: the config file's. */
  baseDir?: string;
}

/**
 * What a plugin registers with `registry.nvlinkFabric(...)`. The operator's `fabrics.nvlink` section is
 * checked against `configSchema` when the config is loaded, then handed to `create`.
 */
export interface NvLinkFabricDefinition {
  /** Short, unique, kebab-case (`nmxm`). */
  name: string;
  description?: string;
  /** JSON Schema of the config section (`fabrics.nvlink`). */
  configSchema?: Readonly<Record<string, unknown>>;
  /** Checks the config (errors name the key), reads credential files and returns a ready fabric. */
  create(
    config: Readonly<Record<string, unknown>>,
    context: NvLinkFabricContext,
  ): NvLinkFabric | Promise<NvLinkFabric>;
}
