import { randomUUID } from "node:crypto";
import { NVLINK_DEFAULT_PARTITION_NUMBER } from "@racksmith/core/nvlink";
import type {
  WireComputeNode,
  WireGpu,
  WireOperation,
  WireOperationStatus,
  WirePartition,
} from "../client/index.js";
import type { SimulatedGpu } from "./layout.js";

/** NMX-M's limit on partition names. */
const MAX_NAME = 244;

export interface SimulatedPartition {
  id: string;
  number: number;
  name: string;
  /** Fixed at creation, so an emptied partition keeps its domain. */
  domain: string | null;
  gpus: string[];
  createdAt: string;
  updatedAt: string;
}

/** What an operation does to the partitions once it runs. */
export type PartitionChange =
  | { kind: "create"; name: string; gpus: string[] }
  | { kind: "update"; partitionId: string; gpus: string[] }
  | { kind: "delete"; partitionId: string };

interface SimulatedOperation {
  id: string;
  change: PartitionChange;
  method: string;
  uri: string;
  body: unknown;
  status: WireOperationStatus;
  /** When it turns in-progress, and when it finishes (ms since epoch). */
  startsAt: number;
  finishesAt: number;
  error?: string;
  partitionId?: string;
}

/** What `failAfterCreates` counts. */
export interface CreateBudget {
  /** Creates that may still succeed; undefined = unlimited. */
  remaining: number | undefined;
}

/**
 * NMX-M's state: GPUs, partitions and operations. Operations advance lazily — each read first applies every
 * operation whose time has come, in order — so no timers outlive a test and every observation is consistent.
 */
export class SimulatorState {
  readonly gpus: readonly SimulatedGpu[];
  private readonly gpuById: ReadonlyMap<string, SimulatedGpu>;
  readonly partitions = new Map<string, SimulatedPartition>();
  private readonly operations = new Map<string, SimulatedOperation>();
  readonly createBudget: CreateBudget = { remaining: undefined };
  operationDelayMs: number;

  constructor(
    gpus: readonly SimulatedGpu[],
    options: { defaultPartition: boolean; operationDelayMs: number },
  ) {
    this.gpus = gpus;
    this.gpuById = new Map(gpus.map((gpu) => [gpu.id, gpu]));
    this.operationDelayMs = options.operationDelayMs;
    if (options.defaultPartition) {
      // Each domain has its own NMX controller, hence its own default partition numbered 32766.
      for (const domain of new Set(gpus.map((gpu) => gpu.domain))) {
        const members = gpus.filter((gpu) => gpu.domain === domain).map((gpu) => gpu.id);
        this.addPartition("Default Partition", members, NVLINK_DEFAULT_PARTITION_NUMBER);
      }
    }
  }

  // ---- inventory ------------------------------------------------------------------------------------

  gpu(id: string): SimulatedGpu | undefined {
    return this.gpuById.get(id);
  }

  partitionOf(gpuId: string): SimulatedPartition | undefined {
    for (const partition of this.partitions.values()) if (partition.gpus.includes(gpuId)) return partition;
    return undefined;
  }

  wireGpu(gpu: SimulatedGpu): WireGpu {
    return {
      ID: gpu.id,
      Name: gpu.name,
      DomainUUID: gpu.domain,
      LocationInfo: {
        ChassisID: gpu.chassisId,
        ChassisSerialNumber: gpu.chassisSerial,
        SlotID: gpu.slot,
        TrayIndex: gpu.tray,
        HostID: gpu.hostId,
      },
      DeviceUID: gpu.deviceUid,
      DeviceID: gpu.deviceIndex,
      VendorID: 0x10de,
      PartitionID: this.partitionOf(gpu.id)?.number ?? null,
      Health: gpu.health,
    };
  }

  computeNodes(): WireComputeNode[] {
    const nodes = new Map<string, WireComputeNode>();
    for (const gpu of this.gpus) {
      const id = `${gpu.chassisSerial}-tray-${gpu.tray}`;
      let node = nodes.get(id);
      if (!node) {
        node = {
          ID: id,
          Name: `${gpu.chassisSerial} compute tray ${gpu.tray}`,
          DomainUUID: gpu.domain,
          // A compute tray sits where its GPUs do.
          LocationInfo: this.wireGpu(gpu).LocationInfo,
          GpuIDList: [],
        };
        nodes.set(id, node);
      }
      node.GpuIDList?.push(gpu.id);
    }
    return [...nodes.values()];
  }

  wirePartition(partition: SimulatedPartition): WirePartition {
    return {
      ID: partition.id,
      PartitionID: partition.number,
      Name: partition.name,
      Type: "ID_BASED",
      Health: "HEALTHY",
      Members: [...partition.gpus],
      CreatedAt: partition.createdAt,
      UpdatedAt: partition.updatedAt,
    };
  }

  /** Adds a partition at once, bypassing operations (setup, or an operator working in NMX-M directly). */
  addPartition(name: string, gpus: readonly string[], number?: number): SimulatedPartition {
    const now = new Date().toISOString();
    const domain = this.domainOf(gpus) ?? null;
    const partition: SimulatedPartition = {
      id: randomUUID(),
      number: number ?? this.nextPartitionNumber(domain),
      name,
      domain,
      gpus: [...gpus],
      createdAt: now,
      updatedAt: now,
    };
    for (const gpu of gpus) this.detach(gpu);
    this.partitions.set(partition.id, partition);
    return partition;
  }

  /** Removes a GPU from whatever partition holds it (immediately, no operation). */
  detach(gpuId: string): void {
    const current = this.partitionOf(gpuId);
    if (current) current.gpus = current.gpus.filter((id) => id !== gpuId);
  }

  /** Domain of a member list (undefined for none or an unknown GPU). */
  domainOf(gpus: readonly string[]): string | undefined {
    const first = gpus[0];
    return first === undefined ? undefined : this.gpuById.get(first)?.domain;
  }

  /** Partition numbers are per domain: each domain's controller numbers its own. */
  private nextPartitionNumber(domain: string | null): number {
    const used = new Set(
      [...this.partitions.values()]
        .filter((partition) => partition.domain === domain)
        .map((partition) => partition.number),
    );
    let number = 1;
    while (used.has(number)) number++;
    return number;
  }

  // ---- operations -----------------------------------------------------------------------------------

  enqueue(
    change: PartitionChange,
    request: { method: string; uri: string; body: unknown },
  ): SimulatedOperation {
    const now = Date.now();
    const operation: SimulatedOperation = {
      id: randomUUID(),
      change,
      ...request,
      status: "pending",
      startsAt: now + Math.floor(this.operationDelayMs / 2),
      finishesAt: now + this.operationDelayMs,
    };
    this.operations.set(operation.id, operation);
    return operation;
  }

  operation(id: string): SimulatedOperation | undefined {
    return this.operations.get(id);
  }

  allOperations(): SimulatedOperation[] {
    return [...this.operations.values()];
  }

  /** Cancels a pending or running operation; false when it already finished. */
  cancel(operation: SimulatedOperation): boolean {
    if (operation.status !== "pending" && operation.status !== "in-progress") return false;
    operation.status = "cancelled";
    return true;
  }

  wireOperation(operation: SimulatedOperation): WireOperation {
    const running = operation.status === "pending" || operation.status === "in-progress";
    return {
      ID: operation.id,
      Status: operation.status,
      Percentage: operation.status === "completed" ? 100 : operation.status === "in-progress" ? 50 : 0,
      CurrentStep: operation.status,
      Request: { Method: operation.method, URI: operation.uri, Body: operation.body, Cancellable: running },
      Result: running
        ? null
        : {
            Data: operation.partitionId ? { ID: operation.partitionId } : null,
            Error: operation.error ?? null,
            Details: null,
          },
    };
  }

  /** Applies, in order, every operation whose time has come. */
  advance(now = Date.now()): void {
    for (const operation of this.operations.values()) {
      if (operation.status === "pending" && now >= operation.startsAt) operation.status = "in-progress";
      if (operation.status === "in-progress" && now >= operation.finishesAt) {
        const error = this.apply(operation);
        operation.status = error ? "failed" : "completed";
        if (error) operation.error = error;
      }
    }
  }

  /** Carries out a change; returns why it failed, or undefined. */
  private apply(operation: SimulatedOperation): string | undefined {
    const { change } = operation;
    if (change.kind === "delete") {
      if (!this.partitions.delete(change.partitionId))
        return `partition ${change.partitionId} does not exist`;
      return undefined;
    }
    const ownId = change.kind === "update" ? change.partitionId : undefined;
    if (ownId !== undefined && !this.partitions.has(ownId)) return `partition ${ownId} does not exist`;
    const problem = this.checkMembers(change.gpus, ownId);
    if (problem) return problem;
    const own = ownId === undefined ? undefined : this.partitions.get(ownId);
    if (own?.domain && own.domain !== this.domainOf(change.gpus))
      return `partition ${own.number} is in domain ${own.domain}; its GPUs must be too`;
    if (change.kind === "create") {
      if (change.name.length > MAX_NAME) return `partition name is longer than ${MAX_NAME} characters`;
      if (this.createBudget.remaining !== undefined) {
        if (this.createBudget.remaining <= 0) return "simulated failure: partition create refused (fault)";
        this.createBudget.remaining--;
      }
      operation.partitionId = this.addPartition(change.name, change.gpus).id;
      return undefined;
    }
    const partition = this.partitions.get(change.partitionId);
    if (!partition) return `partition ${change.partitionId} does not exist`;
    partition.gpus = [...change.gpus];
    partition.updatedAt = new Date().toISOString();
    return undefined;
  }

  /** Real NMX-M refuses a GPU that sits in another partition (the default one included). */
  private checkMembers(gpus: readonly string[], ownPartitionId: string | undefined): string | undefined {
    if (gpus.length === 0) return "a partition needs at least one GPU";
    const domains = new Set<string>();
    for (const id of gpus) {
      const gpu = this.gpuById.get(id);
      if (!gpu) return `GPU ${id} does not exist`;
      domains.add(gpu.domain);
      const holder = this.partitionOf(id);
      if (holder && holder.id !== ownPartitionId) return `GPU ${id} is already in partition ${holder.number}`;
    }
    if (domains.size > 1) return `GPUs span ${domains.size} NVLink domains; a partition lives in one`;
    return undefined;
  }
}
