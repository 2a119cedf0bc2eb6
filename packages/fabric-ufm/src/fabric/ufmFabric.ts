import { hasErrorCode } from "@racksmith/core";
import {
  checkInfiniBandQos,
  formatPkey,
  type IbGuid,
  type InfiniBandBindOptions,
  type InfiniBandCallOptions,
  type InfiniBandFabric,
  InfiniBandFabricBadResponseError,
  type InfiniBandFabricSettings,
  type InfiniBandFabricVersions,
  type InfiniBandPartition,
  type InfiniBandPartitionQuery,
  type InfiniBandPort,
  type InfiniBandPortFilter,
  type InfiniBandQos,
  type InfiniBandSubnetManagerConfig,
  normalizeIbGuid,
  type Pkey,
  parsePkey,
} from "@racksmith/core/infiniband";
import type { UfmClient } from "../client/index.js";
import { ShapeError, toPartition, toPort, toSubnetManagerConfig, toVersions } from "./convert.js";

/** `InfiniBandFabric` over UFM's REST API: translation only, the core decides what to bind where. */
export class UfmInfiniBandFabric implements InfiniBandFabric {
  readonly name: string;

  constructor(
    private readonly client: UfmClient,
    readonly settings: InfiniBandFabricSettings,
    name = "ufm",
  ) {
    this.name = name;
  }

  async versions(options: InfiniBandCallOptions = {}): Promise<InfiniBandFabricVersions> {
    const wire = await this.client.getVersion(callOptions(options));
    return this.shaped("GET /app/ufm_version", () => toVersions(wire));
  }

  async subnetManagerConfig(options: InfiniBandCallOptions = {}): Promise<InfiniBandSubnetManagerConfig> {
    const wire = await this.client.getSmConfig(callOptions(options));
    return this.shaped("GET /app/smconf", () => toSubnetManagerConfig(wire));
  }

  async listPartitions(query: InfiniBandPartitionQuery = {}): Promise<InfiniBandPartition[]> {
    const guids = query.guids === true;
    const qos = query.qos === true;
    // UFM's combined listing is broken (bug 5409095): list with QoS, then get each partition with both.
    const listing = await this.client.listPartitions({
      ...(query.signal ? { signal: query.signal } : {}),
      guidsData: guids && !qos,
      qosConf: !guids || qos,
    });
    const partitions = this.shaped("GET /resources/pkeys", () =>
      Object.entries(listing).map(([key, entry]) => toPartition(parsePkey(key), entry, guids, qos)),
    );
    if (!(guids && qos)) return sortByPkey(partitions);
    const detailed: InfiniBandPartition[] = [];
    for (const partition of partitions) {
      try {
        detailed.push(await this.getPartition(partition.pkey, query));
      } catch (error) {
        // Gone between the listing and the get: it no longer exists, which is what the caller sees.
        if (!hasErrorCode(error, "fabric_not_found")) throw error;
      }
    }
    return detailed;
  }

  async getPartition(pkey: Pkey, query: InfiniBandPartitionQuery = {}): Promise<InfiniBandPartition> {
    const wire = await this.client.getPartition(pkey, {
      ...(query.signal ? { signal: query.signal } : {}),
      guidsData: query.guids === true,
      qosConf: query.qos === true,
    });
    return this.shaped(`GET /resources/pkeys/${formatPkey(pkey)}`, () =>
      toPartition(pkey, wire, query.guids === true, query.qos === true),
    );
  }

  async bindGuids(pkey: Pkey, guids: readonly IbGuid[], options: InfiniBandBindOptions = {}): Promise<void> {
    const normalized = normalizeAll(guids);
    if (normalized.length === 0) return;
    await this.client.bindPorts(
      {
        pkey: formatPkey(pkey),
        ip_over_ib: options.ipOverIb ?? true,
        membership: options.membership ?? "full",
        index0: options.index0 ?? true,
        guids: normalized,
      },
      callOptions(options),
    );
  }

  async unbindGuids(
    pkey: Pkey,
    guids: readonly IbGuid[],
    options: InfiniBandCallOptions = {},
  ): Promise<void> {
    const normalized = normalizeAll(guids);
    if (normalized.length === 0) return;
    try {
      await this.client.unbindPorts({ pkey: formatPkey(pkey), guids: normalized }, callOptions(options));
    } catch (error) {
      // The partition went away with its last GUID: there is nothing left to unbind.
      if (!hasErrorCode(error, "fabric_not_found")) throw error;
    }
  }

  async updateQos(pkey: Pkey, qos: InfiniBandQos, options: InfiniBandCallOptions = {}): Promise<void> {
    checkInfiniBandQos(qos);
    await this.client.updatePartitionQos(
      {
        pkey: formatPkey(pkey),
        mtu_limit: qos.mtu,
        service_level: qos.serviceLevel,
        rate_limit: qos.rateLimit,
      },
      callOptions(options),
    );
  }

  async listPorts(filter: InfiniBandPortFilter = {}): Promise<InfiniBandPort[]> {
    const options = callOptions(filter);
    const wire = await this.client.listPorts(options);
    let ports = this.shaped("GET /resources/ports", () => wire.map(toPort));
    if (filter.guids) {
      const wanted = new Set(normalizeAll(filter.guids));
      ports = ports.filter((port) => wanted.has(port.guid));
    }
    if (filter.pkey !== undefined) {
      const members = await this.memberGuids(filter.pkey, options);
      ports = ports.filter((port) => members.has(port.guid));
    }
    if (filter.state) ports = ports.filter((port) => port.state === filter.state);
    return ports;
  }

  /**
   * A raw, read-only GET below UFM's REST base (`/resources/...`) for debugging (the core's `ufm browse`):
   * the JSON body as UFM sent it (secrets scrubbed), or the text when it is not JSON.
   */
  async browse(
    path: string,
    options: InfiniBandCallOptions = {},
  ): Promise<{ status: number; body: unknown }> {
    const response = await this.client.rawGet(path, callOptions(options));
    try {
      return { status: response.status, body: JSON.parse(response.body) as unknown };
    } catch {
      return { status: response.status, body: response.body };
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }

  /** A partition UFM does not have has no members. */
  private async memberGuids(pkey: Pkey, options: InfiniBandCallOptions): Promise<Set<IbGuid>> {
    try {
      const partition = await this.getPartition(pkey, { ...options, guids: true });
      return new Set((partition.members ?? []).map((member) => member.guid));
    } catch (error) {
      if (hasErrorCode(error, "fabric_not_found")) return new Set();
      throw error;
    }
  }

  /** Runs a conversion; a payload of the wrong shape becomes `fabric_bad_response` naming the request. */
  private shaped<T>(what: string, convert: () => T): T {
    try {
      return convert();
    } catch (error) {
      if (error instanceof ShapeError || hasErrorCode(error, "invalid_argument"))
        throw new InfiniBandFabricBadResponseError(this.name, `${what}: ${(error as Error).message}`, {
          cause: error,
        });
      throw error;
    }
  }
}

function normalizeAll(guids: readonly string[]): IbGuid[] {
  return [...new Set(guids.map(normalizeIbGuid))];
}

function callOptions(options: InfiniBandCallOptions): InfiniBandCallOptions {
  return options.signal ? { signal: options.signal } : {};
}

function sortByPkey(partitions: InfiniBandPartition[]): InfiniBandPartition[] {
  return partitions.sort((a, b) => a.pkey - b.pkey);
}
