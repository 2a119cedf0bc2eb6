import { type Logger, silentLogger } from "@racksmith/core";
import { NvLinkFabricBadResponseError } from "@racksmith/core/nvlink";
import type { NmxmConnectionSettings } from "../config/index.js";
import {
  parseComputeNodes,
  parseGpus,
  parseOperation,
  parseOperationRef,
  parsePartition,
  parsePartitions,
  WireShapeError,
} from "./parse.js";
import { NmxmTransport, type TransportRequest } from "./transport.js";
import type {
  WireComputeNode,
  WireCreatePartition,
  WireGpu,
  WireOperation,
  WireOperationRef,
  WirePartition,
  WireUpdatePartition,
} from "./wire.js";

export type NmxmCountable = "chassis" | "compute-nodes" | "gpus" | "ports" | "switch-nodes";

const API = "nmx/v1";

/** The NMX-M REST endpoints Racksmith uses (NICo's `Nmxm` trait), returning NMX-M's own models. */
export class NmxmClient {
  private readonly transport: NmxmTransport;

  constructor(
    settings: NmxmConnectionSettings,
    private readonly fabric = "nmxm",
    logger: Logger = silentLogger,
  ) {
    this.transport = new NmxmTransport(settings, fabric, logger);
  }

  async getGpus(id?: string, signal?: AbortSignal): Promise<WireGpu[]> {
    const request: TransportRequest = id
      ? { method: "GET", path: `${API}/gpus/${enc(id)}`, signal, notFound: { what: "GPU", id } }
      : { method: "GET", path: `${API}/gpus`, signal };
    return this.call(request, parseGpus);
  }

  async getComputeNodes(id?: string, signal?: AbortSignal): Promise<WireComputeNode[]> {
    const request: TransportRequest = id
      ? {
          method: "GET",
          path: `${API}/compute-nodes/${enc(id)}`,
          signal,
          notFound: { what: "compute node", id },
        }
      : { method: "GET", path: `${API}/compute-nodes`, signal };
    return this.call(request, parseComputeNodes);
  }

  async count(kind: NmxmCountable, signal?: AbortSignal): Promise<number> {
    return this.call({ method: "GET", path: `${API}/${kind}/count`, signal }, (body) => {
      const total = (body as { total?: unknown } | null)?.total;
      if (typeof total !== "number") throw new WireShapeError("total: expected a number");
      return total;
    });
  }

  async getPartitions(signal?: AbortSignal): Promise<WirePartition[]> {
    return this.call({ method: "GET", path: `${API}/partitions`, signal }, parsePartitions);
  }

  async getPartition(id: string, signal?: AbortSignal): Promise<WirePartition> {
    return this.call(
      { method: "GET", path: `${API}/partitions/${enc(id)}`, signal, notFound: { what: "partition", id } },
      (body) => parsePartition(body),
    );
  }

  async createPartition(body: WireCreatePartition, signal?: AbortSignal): Promise<WireOperationRef> {
    return this.call({ method: "POST", path: `${API}/partitions`, body, signal }, parseOperationRef);
  }

  async updatePartition(
    id: string,
    body: WireUpdatePartition,
    signal?: AbortSignal,
  ): Promise<WireOperationRef> {
    return this.call(
      {
        method: "PUT",
        path: `${API}/partitions/${enc(id)}`,
        body,
        signal,
        notFound: { what: "partition", id },
      },
      parseOperationRef,
    );
  }

  async deletePartition(id: string, signal?: AbortSignal): Promise<WireOperationRef> {
    return this.call(
      { method: "DELETE", path: `${API}/partitions/${enc(id)}`, signal, notFound: { what: "partition", id } },
      parseOperationRef,
    );
  }

  async getOperation(id: string, signal?: AbortSignal): Promise<WireOperation> {
    return this.call(
      { method: "GET", path: `${API}/operations/${enc(id)}`, signal, notFound: { what: "operation", id } },
      (body) => parseOperation(body),
    );
  }

  async getOperations(signal?: AbortSignal): Promise<WireOperation[]> {
    return this.call({ method: "GET", path: `${API}/operations`, signal }, (body) => {
      if (!Array.isArray(body)) throw new WireShapeError("operations: expected a list");
      return body.map((item, index) => parseOperation(item, `operations[${index}]`));
    });
  }

  async cancelOperation(id: string, signal?: AbortSignal): Promise<WireOperationRef> {
    return this.call(
      { method: "DELETE", path: `${API}/operations/${enc(id)}`, signal, notFound: { what: "operation", id } },
      parseOperationRef,
    );
  }

  /** GET any path under the endpoint and return its JSON as is (NICo's `raw_get`, for browsing). */
  async rawGet(path: string, signal?: AbortSignal): Promise<unknown> {
    return this.transport.request({ method: "GET", path, signal });
  }

  async close(): Promise<void> {
    await this.transport.close();
  }

  private async call<T>(request: TransportRequest, parse: (body: unknown) => T): Promise<T> {
    const body = await this.transport.request(request);
    try {
      return parse(body);
    } catch (error) {
      if (!(error instanceof WireShapeError)) throw error;
      throw new NvLinkFabricBadResponseError(
        this.fabric,
        `${request.method} ${request.path}: unexpected response: ${error.message}`,
        { details: { method: request.method, path: request.path } },
      );
    }
  }
}

/** Ids come from NMX-M or the database; encode them so an odd id cannot change the path. */
function enc(id: string): string {
  return encodeURIComponent(id);
}
