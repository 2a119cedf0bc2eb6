import type { WireComputeNode, WireGpu, WireOperation, WireOperationRef, WirePartition } from "./wire.js";

/** A response that does not have the shape NMX-M documents; the message names the field. */
export class WireShapeError extends Error {}

/**
 * JSON.parse, except that `DeviceUID` / `SystemUID` integers are read as strings: they are u64 and would
 * silently lose precision as JavaScript numbers.
 */
export function parseJson(text: string): unknown {
  return JSON.parse(text.replace(/("(?:DeviceUID|SystemUID)"\s*:\s*)(\d+)/g, '$1"$2"'));
}

type Record_ = Record<string, unknown>;

function object(value: unknown, where: string): Record_ {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new WireShapeError(`${where}: expected an object`);
  return value as Record_;
}

function list(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new WireShapeError(`${where}: expected a list`);
  return value;
}

function string(record: Record_, key: string, where: string): string {
  const value = record[key];
  if (typeof value === "string" && value !== "") return value;
  // Some NMX-M ids are numeric; an id is an opaque string to us either way.
  if (typeof value === "number") return String(value);
  throw new WireShapeError(`${where}.${key}: expected a non-empty string`);
}

function integer(record: Record_, key: string, where: string): number {
  const value = record[key];
  if (typeof value === "number" && Number.isInteger(value)) return value;
  throw new WireShapeError(`${where}.${key}: expected an integer`);
}

/** GET on one GPU or node answers a one-element list; accept a bare object too. */
function items(value: unknown, where: string): unknown[] {
  return Array.isArray(value) ? value : [object(value, where)];
}

export function parseGpus(value: unknown): WireGpu[] {
  return items(value, "gpus").map((item, index) => {
    const where = `gpus[${index}]`;
    const gpu = object(item, where);
    string(gpu, "ID", where);
    string(gpu, "DomainUUID", where);
    if (gpu.LocationInfo !== undefined && gpu.LocationInfo !== null)
      object(gpu.LocationInfo, `${where}.LocationInfo`);
    return gpu as unknown as WireGpu;
  });
}

export function parseComputeNodes(value: unknown): WireComputeNode[] {
  return items(value, "compute-nodes").map((item, index) => {
    const node = object(item, `compute-nodes[${index}]`);
    string(node, "ID", `compute-nodes[${index}]`);
    return node as unknown as WireComputeNode;
  });
}

export function parsePartition(value: unknown, where = "partition"): WirePartition {
  const partition = object(value, where);
  string(partition, "ID", where);
  integer(partition, "PartitionID", where);
  if (typeof partition.Name !== "string") throw new WireShapeError(`${where}.Name: expected a string`);
  if (partition.Members !== undefined && partition.Members !== null)
    list(partition.Members, `${where}.Members`);
  return partition as unknown as WirePartition;
}

export function parsePartitions(value: unknown): WirePartition[] {
  return list(value, "partitions").map((item, index) => parsePartition(item, `partitions[${index}]`));
}

export function parseOperation(value: unknown, where = "operation"): WireOperation {
  const operation = object(value, where);
  string(operation, "ID", where);
  string(operation, "Status", where);
  return operation as unknown as WireOperation;
}

export function parseOperationRef(value: unknown): WireOperationRef {
  const ref = object(value, "response");
  return { operationId: string(ref, "operationId", "response") };
}
