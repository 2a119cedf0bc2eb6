import { InvalidArgumentError, type Logger, silentLogger } from "@racksmith/core";
import {
  isFinalNvLinkOperationStatus,
  type NvLinkCallOptions,
  type NvLinkComputeNode,
  type NvLinkCreatePartitionRequest,
  type NvLinkFabric,
  NvLinkFabricBadResponseError,
  NvLinkFabricNotFoundError,
  type NvLinkGpu,
  type NvLinkListOptions,
  type NvLinkMonitorSettings,
  type NvLinkOperation,
  type NvLinkOperationRef,
  type NvLinkPartition,
  type NvLinkUpdatePartitionRequest,
  type NvLinkWaitOptions,
} from "@racksmith/core/nvlink";
import { NmxmClient } from "../client/index.js";
import type { NmxmConnectionSettings } from "../config/index.js";
import { GpuIndex, toComputeNode, toGpu, toOperation, toPartition } from "./convert.js";

/** NICo truncates partition names to 240 characters; NMX-M refuses more than 244. */
export const MAX_PARTITION_NAME = 240;

/** The `NvLinkFabric` contract on top of the NMX-M REST API. */
export class NmxmFabric implements NvLinkFabric {
  readonly name: string;
  readonly monitor: NvLinkMonitorSettings;
  private readonly client: NmxmClient;

  constructor(
    connection: NmxmConnectionSettings,
    monitor: NvLinkMonitorSettings,
    options: { name?: string; logger?: Logger } = {},
  ) {
    this.name = options.name ?? "nmxm";
    this.monitor = monitor;
    this.client = new NmxmClient(connection, this.name, options.logger ?? silentLogger);
  }

  async listGpus(options: NvLinkListOptions = {}): Promise<NvLinkGpu[]> {
    const gpus = (await this.client.getGpus(undefined, options.signal)).map(toGpu);
    return options.domain === undefined ? gpus : gpus.filter((gpu) => gpu.domain === options.domain);
  }

  async getGpu(id: string, options: NvLinkCallOptions = {}): Promise<NvLinkGpu> {
    const gpu = (await this.client.getGpus(id, options.signal)).find((candidate) => candidate.ID === id);
    if (!gpu) throw new NvLinkFabricNotFoundError(this.name, "GPU", id);
    return toGpu(gpu);
  }

  async listComputeNodes(options: NvLinkListOptions = {}): Promise<NvLinkComputeNode[]> {
    const nodes = (await this.client.getComputeNodes(undefined, options.signal)).map(toComputeNode);
    return options.domain === undefined ? nodes : nodes.filter((node) => node.domain === options.domain);
  }

  async listPartitions(options: NvLinkListOptions = {}): Promise<NvLinkPartition[]> {
    // NMX-M partitions carry no domain: it comes from their members, so the GPU list is needed too.
    const [partitions, gpus] = await Promise.all([
      this.client.getPartitions(options.signal),
      this.client.getGpus(undefined, options.signal),
    ]);
    const index = new GpuIndex(gpus);
    const converted = partitions.map((partition) => toPartition(partition, index));
    return options.domain === undefined
      ? converted
      : converted.filter((partition) => partition.domain === options.domain);
  }

  async getPartition(id: string, options: NvLinkCallOptions = {}): Promise<NvLinkPartition> {
    const [partition, gpus] = await Promise.all([
      this.client.getPartition(id, options.signal),
      this.client.getGpus(undefined, options.signal),
    ]);
    return toPartition(partition, new GpuIndex(gpus));
  }

  async createPartition(
    request: NvLinkCreatePartitionRequest,
    options: NvLinkCallOptions = {},
  ): Promise<NvLinkOperationRef> {
    checkMembers("createPartition", request.gpus);
    const name = request.name.slice(0, MAX_PARTITION_NAME);
    return this.client.createPartition({ Name: name, Members: [...request.gpus] }, options.signal);
  }

  async updatePartition(
    id: string,
    request: NvLinkUpdatePartitionRequest,
    options: NvLinkCallOptions = {},
  ): Promise<NvLinkOperationRef> {
    // An empty member list is a delete in disguise; callers must say so (NICo removes the last GPU by DELETE).
    checkMembers("updatePartition", request.gpus);
    return this.client.updatePartition(id, { Members: [...request.gpus] }, options.signal);
  }

  async deletePartition(id: string, options: NvLinkCallOptions = {}): Promise<NvLinkOperationRef> {
    return this.client.deletePartition(id, options.signal);
  }

  async getOperation(id: string, options: NvLinkCallOptions = {}): Promise<NvLinkOperation> {
    const wire = await this.client.getOperation(id, options.signal);
    const operation = toOperation(wire);
    if (!operation) {
      throw new NvLinkFabricBadResponseError(
        this.name,
        `operation ${JSON.stringify(id)} has unknown status ${JSON.stringify(wire.Status)}`,
        { details: { operationId: id } },
      );
    }
    return operation;
  }

  async cancelOperation(id: string, options: NvLinkCallOptions = {}): Promise<NvLinkOperationRef> {
    return this.client.cancelOperation(id, options.signal);
  }

  async waitForOperation(id: string, options: NvLinkWaitOptions = {}): Promise<NvLinkOperation> {
    const timeoutMs = options.timeoutMs ?? this.monitor.operationTimeoutMs;
    const pollMs = options.pollMs ?? this.monitor.operationPollMs;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const operation = await this.getOperation(id, options);
      if (isFinalNvLinkOperationStatus(operation.status)) return operation;
      const left = deadline - Date.now();
      if (left <= 0) return operation;
      await sleep(Math.min(pollMs, left), options.signal);
    }
  }

  /** Raw JSON of a read-only NMX-M path; refuses anything outside `nmx/` and any `..` segment. */
  async browse(path: string, options: NvLinkCallOptions = {}): Promise<unknown> {
    const relative = path.replace(/^\/+/, "");
    if (!/^nmx\/[A-Za-z0-9._~\-/?=&%]*$/.test(relative) || relative.split(/[/?]/).includes("..")) {
      throw new InvalidArgumentError(
        `path: ${JSON.stringify(path)} must be an NMX-M API path such as nmx/v1/gpus (no "..")`,
        { details: { field: "path" } },
      );
    }
    return this.client.rawGet(relative, options.signal);
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

function checkMembers(operation: string, gpus: readonly string[]): void {
  if (gpus.length === 0) throw new InvalidArgumentError(`${operation}: gpus must list at least one GPU id`);
  if (gpus.some((gpu) => typeof gpu !== "string" || gpu === ""))
    throw new InvalidArgumentError(`${operation}: gpus must be non-empty GPU id strings`);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
