import { InvalidArgumentError } from "@racksmith/core";
import type { InstanceConfig, InstanceInfiniBandInterface, InstanceNvLinkGpu } from "../tables.js";

/** The instance config sections a fabric owns; each accepted only while that fabric is configured. */
export const FABRIC_SECTIONS = {
  infiniband: "fabrics.infiniband",
  nvlink: "fabrics.nvlink",
} as const;

export type FabricSection = keyof typeof FABRIC_SECTIONS;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(where: string, message: string): InvalidArgumentError {
  return new InvalidArgumentError(`${where}: ${message}`, { details: { field: where } });
}

function index(value: unknown, where: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw invalid(where, `${JSON.stringify(value)} is not a non-negative integer`);
  }
  return value;
}

function id(value: unknown, where: string): string {
  if (typeof value !== "string" || value.trim() === "") throw invalid(where, "must be a non-empty id");
  return value;
}

function list(section: unknown, key: string, where: string): unknown[] {
  if (!isObject(section)) throw invalid(where, "must be an object");
  const raw = section[key] ?? [];
  if (!Array.isArray(raw)) throw invalid(`${where}.${key}`, "must be an array");
  return raw;
}

/** `config.infiniband`: each port at most once; whether the host has it is the fabric's check. */
export function parseInfiniBandSection(
  section: unknown,
  where: string,
): NonNullable<InstanceConfig["infiniband"]> {
  const seen = new Set<string>();
  const interfaces = list(section, "interfaces", where).map((entry, i): InstanceInfiniBandInterface => {
    const at = `${where}.interfaces[${i}]`;
    if (!isObject(entry)) throw invalid(at, "must be an object");
    if (typeof entry.device !== "string" || entry.device.trim() === "") {
      throw invalid(`${at}.device`, "must name the HCA model (as the host agent lists it)");
    }
    const vf = entry.virtualFunction ?? null;
    const parsed: InstanceInfiniBandInterface = {
      device: entry.device,
      deviceInstance: index(entry.deviceInstance ?? 0, `${at}.deviceInstance`),
      virtualFunction: vf === null ? null : index(vf, `${at}.virtualFunction`),
      partitionId: id(entry.partitionId, `${at}.partitionId`),
    };
    const key = `${parsed.device}#${parsed.deviceInstance}#${parsed.virtualFunction ?? "pf"}`;
    if (seen.has(key))
      throw invalid(at, "this port (device, deviceInstance, virtualFunction) is configured twice");
    seen.add(key);
    return parsed;
  });
  return { interfaces };
}

/** `config.nvlink`: each GPU at most once; whether the host has it is the fabric's check. */
export function parseNvLinkSection(section: unknown, where: string): NonNullable<InstanceConfig["nvlink"]> {
  const seen = new Set<number>();
  const gpus = list(section, "gpus", where).map((entry, i): InstanceNvLinkGpu => {
    const at = `${where}.gpus[${i}]`;
    if (!isObject(entry)) throw invalid(at, "must be an object");
    const deviceInstance = index(entry.deviceInstance, `${at}.deviceInstance`);
    if (seen.has(deviceInstance))
      throw invalid(`${at}.deviceInstance`, `GPU ${deviceInstance} is configured twice`);
    seen.add(deviceInstance);
    return { deviceInstance, logicalPartitionId: id(entry.logicalPartitionId, `${at}.logicalPartitionId`) };
  });
  return { gpus };
}
